import { randomBytes } from 'node:crypto';
import { TestSeller } from '../../utils/auth';
import { TestApp } from '../../utils/test-app';

/** Everything publish asks for (OpenAPI: `POST /v1/products/{id}/publish`), except files and plans. */
export const COMPLETE_PRODUCT = {
  name: 'Guia de Marketing Digital',
  price: 1500,
  sale_page_url: 'https://example.com/guia',
  image_url: 'https://example.com/guia.png',
  category: 'Educação',
  subcategory: 'Marketing',
  contact_number: '+258841234567',
};

export interface CreatedProduct {
  id: number;
  pid: string;
  [field: string]: unknown;
}

export async function createProduct(
  t: TestApp,
  seller: TestSeller,
  body: Record<string, unknown> = { name: 'Ebook' },
): Promise<CreatedProduct> {
  const res = await t.http.post('/v1/products').set(seller.auth).send(body).expect(201);
  return res.body.product;
}

export async function addLinkFile(t: TestApp, seller: TestSeller, productId: number | string): Promise<{ id: number }> {
  const res = await t.http
    .post(`/v1/products/${productId}/files`)
    .set(seller.auth)
    .send({ name: 'Aula 1', link: 'https://videos.example.com/aula-1' })
    .expect(201);
  return res.body.file;
}

export async function createPlan(
  t: TestApp,
  seller: TestSeller,
  productPid: string,
  body: Record<string, unknown> = {},
): Promise<{ id: number; plan_id: string }> {
  const res = await t.http
    .post('/v1/plans')
    .set(seller.auth)
    .send({ product_pid: productPid, name: 'Mensal', price: 500, interval: 'month', ...body })
    .expect(201);
  return res.body.plan;
}

/**
 * Orders and customers belong to billing, which is written elsewhere: the tests insert the rows
 * the catalog reads (sales, subscribers) straight into the shared tables.
 */
export async function insertOrder(
  t: TestApp,
  values: {
    storeId: number;
    productId: number;
    planId?: number | null;
    status: string;
    amount?: string;
    createdAt?: Date;
    email?: string;
  },
): Promise<{ id: number; orderNumber: string; customerId: number }> {
  const email = values.email ?? `buyer-${randomBytes(4).toString('hex')}@example.com`;
  const [customer] = await t.dataSource.query(
    `INSERT INTO customers (store_id, email, name, mobile_number) VALUES ($1, $2, $3, $4)
     ON CONFLICT (store_id, email) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [values.storeId, email, `Buyer ${email.split('@')[0]}`, '+258841234567'],
  );
  const orderNumber = `ORD-${randomBytes(5).toString('hex').toUpperCase()}`;
  const [order] = await t.dataSource.query(
    `INSERT INTO orders (store_id, order_number, pay_token_hash, product_id, plan_id, customer_id, status, currency,
                         original_amount, amount, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'MZN', $8, $8, $9, $9) RETURNING id`,
    [
      values.storeId,
      orderNumber,
      randomBytes(32).toString('hex'),
      values.productId,
      values.planId ?? null,
      customer.id,
      values.status,
      values.amount ?? '500.00',
      values.createdAt ?? new Date(),
    ],
  );
  return { id: order.id, orderNumber, customerId: customer.id };
}

/** The 403 body (the OpenAPI description) for a token holding `granted` but not `required`. */
export function forbidden(required: string, granted: string[]) {
  return {
    status: 'error',
    message: 'Permission denied for this endpoint.',
    error_code: 'insufficient_scope',
    required_scopes: [required],
    missing_scopes: [required],
    granted_scopes: granted,
  };
}

export const NOT_FOUND = { status: 'error', message: 'Resource not found.' };
