import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of its own on the server of `DATABASE_URL`, so a run never touches real data. */
export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `commerce_bench_${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

export function query<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return withClient(url, async (c) => (await c.query(sql, params)).rows as T[]);
}

async function columnsOf(client: Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

/**
 * `INSERT INTO table SELECT … FROM table AS t …`: every column copied from the template row `t`
 * except `id` (the sequence assigns it) and the overridden ones. Copying whatever columns exist
 * keeps the clones valid as the schema grows.
 */
async function cloneSql(
  client: Client,
  table: string,
  overrides: Record<string, string>,
  from: string,
): Promise<string> {
  const columns = (await columnsOf(client, table)).filter((c) => c !== 'id');
  const select = columns.map((c) => (c in overrides ? `${overrides[c]} AS "${c}"` : `t."${c}"`));
  return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${select.join(', ')} ${from}`;
}

export interface BulkOrdersInput {
  storeId: number;
  orders: number;
  /** An order created (and approved) through the API on the one-time product: the template of most clones. */
  oneTimeTemplateOrderId: number;
  /** An approved order of the measured plan, created through the API: the template of the plan's clones. */
  planTemplateOrderId: number;
  /** How many of the bulk orders belong to the measured plan (a fixed number, whatever `orders` is). */
  planOrders: number;
}

export interface BulkOrdersResult {
  customers: number;
  /** A bulk customer whose order history has the same size at any `orders`. */
  measuredCustomerId: number | null;
  seconds: number;
}

/**
 * Bulk-inserts `orders` orders by cloning rows the service itself wrote (so every column has a
 * value the service would write), spread round-robin over `ceil(orders / 10)` new customers: each
 * customer holds about ten orders and the measured plan `planOrders` subscribers at any scale, so
 * the list scenarios compare like with like as the table grows. A quarter of the clones are `pending`.
 * Approved clones of plan orders get a subscription row cloned from the template's, when there is one.
 */
export async function bulkInsertOrders(url: string, input: BulkOrdersInput): Promise<BulkOrdersResult> {
  const started = Date.now();
  if (input.orders === 0) return { customers: 0, measuredCustomerId: null, seconds: 0 };
  const customers = Math.max(1, Math.ceil(input.orders / 10));
  return withClient(url, async (client) => {
    await client.query('BEGIN');
    const [template] = (
      await client.query('SELECT customer_id FROM orders WHERE id = $1', [input.oneTimeTemplateOrderId])
    ).rows;
    const customerColumns = await columnsOf(client, 'customers');
    const customerOverrides: Record<string, string> = {
      email: `'bulk-' || g || '@bench.example'`,
      name: `'Bulk customer ' || g`,
    };
    if (customerColumns.includes('created_at')) customerOverrides.created_at = `now() - make_interval(secs => g)`;
    if (customerColumns.includes('updated_at')) customerOverrides.updated_at = `now() - make_interval(secs => g)`;
    await client.query(
      await cloneSql(
        client,
        'customers',
        customerOverrides,
        `FROM customers t, generate_series(1, ${customers}) g WHERE t.id = ${Number(template.customer_id)}`,
      ),
    );
    await client.query(
      `CREATE TEMP TABLE bulk_customers ON COMMIT DROP AS
         SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS k FROM customers
          WHERE store_id = $1 AND email LIKE 'bulk-%@bench.example'`,
      [input.storeId],
    );
    await client.query('CREATE INDEX ON bulk_customers (k)');

    const orderColumns = await columnsOf(client, 'orders');
    // One order in four of each customer's history is pending.
    const pending = `((g / ${customers}) % 4 = 3)`;
    const overrides: Record<string, string> = {
      order_number: `'BULK' || lpad(g::text, 10, '0')`,
      pay_token_hash: `md5(g::text || random()::text) || md5(random()::text || g::text)`,
      customer_id: `c.id`,
      status: `CASE WHEN ${pending} THEN 'pending' ELSE t.status END`,
      created_at: `now() - make_interval(secs => g)`,
      updated_at: `now() - make_interval(secs => g)`,
    };
    for (const column of ['approved_at', 'transaction_id', 'payment_method', 'payment_number']) {
      if (orderColumns.includes(column)) overrides[column] = `CASE WHEN ${pending} THEN NULL ELSE t."${column}" END`;
    }
    const fromRange = (template: number, first: number, last: number) =>
      `FROM orders t, generate_series(${first}, ${last}) g JOIN bulk_customers c ON c.k = g % ${customers} WHERE t.id = ${template}`;
    const planOrders = Math.min(input.planOrders, input.orders);
    if (planOrders > 0) {
      await client.query(
        await cloneSql(client, 'orders', overrides, fromRange(input.planTemplateOrderId, 1, planOrders)),
      );
    }
    if (input.orders > planOrders) {
      await client.query(
        await cloneSql(
          client,
          'orders',
          overrides,
          fromRange(input.oneTimeTemplateOrderId, planOrders + 1, input.orders),
        ),
      );
    }

    const [subscription] = (
      await client.query('SELECT id FROM subscriptions WHERE order_id = $1', [input.planTemplateOrderId])
    ).rows;
    if (subscription && planOrders > 0) {
      const subscriptionOverrides: Record<string, string> = { order_id: 'o.id', customer_id: 'o.customer_id' };
      await client.query(
        await cloneSql(
          client,
          'subscriptions',
          subscriptionOverrides,
          `FROM subscriptions t, orders o WHERE t.id = ${Number(subscription.id)}
             AND o.store_id = ${input.storeId} AND o.order_number LIKE 'BULK%' AND o.status = 'approved'
             AND o.plan_id = (SELECT plan_id FROM orders WHERE id = ${input.planTemplateOrderId})`,
        ),
      );
    }
    const [{ id: measuredCustomerId }] = (await client.query('SELECT id FROM bulk_customers WHERE k = 0')).rows;
    await client.query('COMMIT');
    // The state autovacuum reaches after a load like this: fresh statistics and a visibility map,
    // so index-only scans skip the heap, and no autovacuum of the new rows running during the
    // measurement (after a million-row insert it competes for the CPU for minutes).
    await client.query('VACUUM ANALYZE customers');
    await client.query('VACUUM ANALYZE orders');
    await client.query('VACUUM ANALYZE subscriptions');
    return { customers, measuredCustomerId: Number(measuredCustomerId), seconds: (Date.now() - started) / 1000 };
  });
}

export interface PayableOrdersInput {
  /** Pending orders the API created: the clones take their columns, round-robin (one customer each). */
  templateOrderIds: number[];
  /** One pay_token per clone, in the order they are handed out. */
  tokens: string[];
  /** The clones' order numbers are this prefix and an 8-digit index. */
  orderNumberPrefix: string;
}

/**
 * Inserts one pending order per token by cloning pending orders the service wrote (as
 * {@link bulkInsertOrders} does), each with `pay_token_hash` the SHA-256 of its token, as the
 * service stores it: every token then opens its own order's checkout.
 */
export async function insertPayableOrders(url: string, input: PayableOrdersInput): Promise<void> {
  await withClient(url, async (client) => {
    const sql = await cloneSql(
      client,
      'orders',
      {
        order_number: `$3 || lpad(p.g::text, 8, '0')`,
        pay_token_hash: `encode(sha256(convert_to(p.token, 'UTF8')), 'hex')`,
        created_at: 'now()',
        updated_at: 'now()',
      },
      `FROM unnest($1::text[]) WITH ORDINALITY AS p(token, g)
         JOIN unnest($2::int[]) WITH ORDINALITY AS tpl(id, k) ON tpl.k = p.g % ${input.templateOrderIds.length} + 1
         JOIN orders t ON t.id = tpl.id
        WHERE t.status = 'pending'`,
    );
    const { rowCount } = await client.query(sql, [input.tokens, input.templateOrderIds, input.orderNumberPrefix]);
    if (rowCount !== input.tokens.length)
      throw new Error(`inserted ${rowCount} payable orders of ${input.tokens.length} (templates not pending?)`);
    // As after the bulk insert: statistics, and no autovacuum of the new rows during the run.
    await client.query('VACUUM ANALYZE orders');
  });
}

export interface PaymentConsistency {
  /** Orders of the pool that left `pending`. */
  paid: number;
  approved: number;
  /** Approved orders with exactly one succeeded attempt. */
  approvedOnce: number;
  /** Orders with two or more succeeded attempts. */
  approvedTwice: number;
  /** Approved orders without a succeeded attempt. */
  approvedWithoutAttempt: number;
  /** Orders with a succeeded attempt that are not approved. */
  succeededNotApproved: number;
  /** Attempts still `processing` or `unknown`. */
  open: number;
}

/** The payment attempts of the orders whose number starts with `orderNumberPrefix`, checked against their orders. */
export async function paymentConsistency(url: string, orderNumberPrefix: string): Promise<PaymentConsistency> {
  const [row] = await query<Record<string, number>>(
    url,
    `SELECT count(*) FILTER (WHERE o.status <> 'pending')::int AS paid,
            count(*) FILTER (WHERE o.status = 'approved')::int AS approved,
            count(*) FILTER (WHERE o.status = 'approved' AND a.succeeded = 1)::int AS approved_once,
            count(*) FILTER (WHERE a.succeeded > 1)::int AS approved_twice,
            count(*) FILTER (WHERE o.status = 'approved' AND a.succeeded = 0)::int AS approved_without_attempt,
            count(*) FILTER (WHERE o.status <> 'approved' AND a.succeeded > 0)::int AS succeeded_not_approved,
            coalesce(sum(a.open), 0)::int AS open
       FROM orders o
       CROSS JOIN LATERAL (
         SELECT count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
                count(*) FILTER (WHERE status IN ('processing', 'unknown')) AS open
           FROM payment_attempts WHERE order_id = o.id) a
      WHERE o.order_number LIKE $1 || '%'`,
    [orderNumberPrefix],
  );
  return {
    paid: row.paid,
    approved: row.approved,
    approvedOnce: row.approved_once,
    approvedTwice: row.approved_twice,
    approvedWithoutAttempt: row.approved_without_attempt,
    succeededNotApproved: row.succeeded_not_approved,
    open: row.open,
  };
}
