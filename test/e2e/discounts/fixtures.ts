import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { TestSeller } from '../../utils/auth';
import { TestApp } from '../../utils/test-app';

/*
 * Rows written straight into the tables: products and orders belong to other modules being built
 * in parallel, and these tests need only the columns discounts read.
 */

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export async function insertProduct(t: TestApp, storeId: number, name = 'Ebook'): Promise<number> {
  const rows: { id: number }[] = await t.dataSource.query(
    'INSERT INTO products (store_id, pid, name, price) VALUES ($1, $2, $3, 100) RETURNING id',
    [storeId, `p_${hex(8)}`, name],
  );
  return rows[0].id;
}

export async function insertCustomer(t: TestApp | EntityManager, storeId: number, email: string): Promise<number> {
  const runner = t instanceof EntityManager ? t : t.dataSource;
  const rows: { id: number }[] = await runner.query(
    `INSERT INTO customers (store_id, email, name, mobile_number) VALUES ($1, $2, 'Ana', '+258840000000')
     ON CONFLICT (store_id, email) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [storeId, email.toLowerCase()],
  );
  return rows[0].id;
}

export interface OrderRow {
  storeId: number;
  productId: number;
  customerId: number;
  discountId?: number | null;
  couponCode?: string | null;
  status?: 'pending' | 'approved' | 'cancelled' | 'refunded';
}

export async function insertOrder(t: TestApp | EntityManager, order: OrderRow): Promise<number> {
  const runner = t instanceof EntityManager ? t : t.dataSource;
  const rows: { id: number }[] = await runner.query(
    `INSERT INTO orders (store_id, order_number, pay_token_hash, product_id, customer_id, status, currency,
                         original_amount, amount, discount_id, coupon_code)
     VALUES ($1, $2, $3, $4, $5, $6, 'MZN', 100, 100, $7, $8) RETURNING id`,
    [
      order.storeId,
      `ORD-${hex(6)}`,
      hex(32),
      order.productId,
      order.customerId,
      order.status ?? 'pending',
      order.discountId ?? null,
      order.couponCode ?? null,
    ],
  );
  return rows[0].id;
}

/** Creates a discount through the API and returns its output. */
export async function createDiscount(t: TestApp, seller: TestSeller, body: Record<string, unknown>) {
  const res = await t.http.post('/v1/discounts').set(seller.auth).send(body);
  if (res.status !== 201) throw new Error(`discount creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.discount as { id: number; code: string; [field: string]: unknown };
}

export async function usedCount(t: TestApp, discountId: number): Promise<number> {
  const rows: { used_count: number }[] = await t.dataSource.query('SELECT used_count FROM discounts WHERE id = $1', [
    discountId,
  ]);
  return rows[0].used_count;
}
