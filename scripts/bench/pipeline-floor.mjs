// The paid-order pipeline's floor: the least work a paid order's steps can do on bare node:http
// and pg, with the libraries the service uses for what it cannot skip (nodemailer's composer for
// the receipt's MIME message). The benchmark runs it beside the service and reads the `webhooks`
// scenario as a share of it (docs/performance.md, *The pipeline's floor*).
//
// Per payment, what any implementation keeping the service's guarantees must do:
//   - claim the payment (one statement: the attempt recorded before the gateway is asked, so a
//     crash mid-call is found again) and ask the gateway (here in process, as the sandbox is);
//   - settle it (one statement: the attempt, the order, a delivery per subscribed webhook and the
//     receipt's once-only record, committed together);
//   - deliver the event: one signed POST (Standard Webhooks, HMAC-SHA256) over a keep-alive
//     connection, its outcome recorded (one statement for the deliveries finished together);
//   - write the receipt: its MIME message built and written to the outbox, then recorded sent
//     (one statement for the receipts written together).
// Nothing is polled: the steps after the commit run in process at once. Nothing is retried and no
// crash is recovered: those paths cost nothing while nothing fails.
//
//   node scripts/bench/pipeline-floor.mjs --setup   creates the tables in DATABASE_URL
//   node scripts/bench/pipeline-floor.mjs           serves on PORT
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import pg from 'pg';

const TOKEN = 'sk_limit';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

if (process.argv.includes('--setup')) {
  await pool.query(`
    CREATE TABLE orders (
      id serial PRIMARY KEY, order_number text UNIQUE NOT NULL, pay_token text UNIQUE NOT NULL,
      product_pid text NOT NULL, amount numeric(12,2) NOT NULL, currency text NOT NULL DEFAULT 'MZN',
      customer_name text NOT NULL, customer_email text NOT NULL, status text NOT NULL DEFAULT 'pending',
      created_at timestamptz NOT NULL DEFAULT now(), approved_at timestamptz);
    CREATE TABLE payment_attempts (
      id bigserial PRIMARY KEY, order_id int NOT NULL REFERENCES orders, status text NOT NULL,
      payment_number text NOT NULL, transaction_id text, created_at timestamptz NOT NULL DEFAULT now());
    CREATE UNIQUE INDEX one_open_attempt ON payment_attempts (order_id) WHERE status IN ('pending', 'succeeded');
    CREATE TABLE webhooks (id serial PRIMARY KEY, url text NOT NULL, secret text NOT NULL, events text[] NOT NULL);
    CREATE TABLE deliveries (
      id bigserial PRIMARY KEY, message_id text NOT NULL, webhook_id int NOT NULL REFERENCES webhooks,
      order_id int NOT NULL REFERENCES orders, payload text NOT NULL, state text NOT NULL DEFAULT 'pending',
      response_code int, attempts int NOT NULL DEFAULT 0, delivered_at timestamptz);
    CREATE TABLE customer_messages (
      id bigserial PRIMARY KEY, channel text NOT NULL, kind text NOT NULL, ref text NOT NULL,
      state text NOT NULL DEFAULT 'pending', detail text, UNIQUE (channel, kind, ref));`);
  await pool.end();
  process.exit(0);
}

const outbox = process.env.PIPELINE_FLOOR_OUTBOX ?? join(tmpdir(), `pipeline-floor-${process.pid}`);
mkdirSync(outbox, { recursive: true });
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) }).end(json);
}

/** Runs `statement` once per turn of the event loop for every item queued in that turn. */
function batcher(statement) {
  let queued = [];
  return (item) => {
    if (!queued.length) setImmediate(() => statement(queued.splice(0)).catch((e) => console.error(e)));
    queued.push(item);
  };
}

const recordDelivery = batcher((done) =>
  pool.query(
    `UPDATE deliveries d SET state = CASE WHEN u.code BETWEEN 200 AND 299 THEN 'delivered' ELSE 'failed' END,
            response_code = u.code, attempts = d.attempts + 1, delivered_at = now()
       FROM unnest($1::bigint[], $2::int[]) AS u(id, code) WHERE d.id = u.id`,
    [done.map((d) => d.id), done.map((d) => d.code)],
  ),
);
const recordReceipt = batcher((done) =>
  pool.query(
    `UPDATE customer_messages m SET state = 'sent', detail = u.path
       FROM unnest($1::text[], $2::text[]) AS u(ref, path)
      WHERE m.channel = 'email' AND m.kind = 'receipt' AND m.ref = u.ref`,
    [done.map((d) => d.ref), done.map((d) => d.path)],
  ),
);

function deliver(delivery) {
  const timestamp = Math.floor(Date.now() / 1000);
  const key = Buffer.from(delivery.secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${delivery.message_id}.${timestamp}.${delivery.payload}`)
    .digest('base64');
  const req = request(delivery.url, {
    method: 'POST',
    agent,
    timeout: 10_000,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(delivery.payload),
      'webhook-id': delivery.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${signature}`,
    },
  });
  req.on('response', (res) => {
    res.resume();
    res.on('end', () => recordDelivery({ id: delivery.id, code: res.statusCode }));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => recordDelivery({ id: delivery.id, code: 0 }));
  req.end(delivery.payload);
}

function receiptHtml(order) {
  const row = (label, value) =>
    `<tr><td style="padding:8px 0;color:#6b7280;font-size:14px">${label}</td>` +
    `<td style="padding:8px 0;text-align:right;font-size:14px;color:#111827">${escape(value)}</td></tr>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>Your receipt</title></head><body style="margin:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,sans-serif">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">` +
    `<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px;padding:32px">` +
    `<tr><td><h1 style="margin:0 0 8px;font-size:22px;color:#111827">Thank you for your order, ${escape(order.customer_name)}</h1>` +
    `<p style="margin:0 0 24px;font-size:15px;color:#374151">Your payment was received. Keep this email as your receipt; ` +
    `the link below opens your order, its files and its license keys at any time.</p>` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-top:1px solid #e5e7eb;border-bottom:1px solid #e5e7eb">` +
    row('Order', order.order_number) +
    row('Product', order.product_pid) +
    row('Paid on', new Date(order.approved_at).toUTCString()) +
    row('Payment', `Mobile money, number ending ${order.payment_number.slice(-4)}`) +
    row('Total', `${order.amount} ${order.currency}`) +
    `</table><p style="margin:24px 0"><a href="http://localhost/orders/${escape(order.pay_token)}" ` +
    `style="display:inline-block;background:#111827;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-size:15px">` +
    `View your order</a></p><p style="margin:0 0 16px;font-size:13px;color:#6b7280">Download links work for 24 hours; ` +
    `the order page gives fresh ones whenever you open it. Keep this email: its order link takes you back at any time.</p>` +
    `<p style="margin:0;font-size:13px;color:#6b7280">Questions about this order? Reply to this email ` +
    `or write to the store; quote the order number above.</p></td></tr></table>` +
    `<p style="margin:16px 0 0;font-size:12px;color:#9ca3af">You receive this email because you bought from this store.</p>` +
    `</td></tr></table></body></html>`
  );
}

function receiptText(order) {
  return [
    `Thank you for your order, ${order.customer_name}`,
    '',
    'Your payment was received. Keep this email as your receipt; the link below opens your order,',
    'its files and its license keys at any time.',
    '',
    `Order:    ${order.order_number}`,
    `Product:  ${order.product_pid}`,
    `Paid on:  ${new Date(order.approved_at).toUTCString()}`,
    `Payment:  Mobile money, number ending ${order.payment_number.slice(-4)}`,
    `Total:    ${order.amount} ${order.currency}`,
    '',
    `View your order: http://localhost/orders/${order.pay_token}`,
    '',
    'Download links work for 24 hours; the order page gives fresh ones whenever you open it.',
    'Keep this email: its order link takes you back at any time.',
    '',
    'Questions about this order? Reply to this email or write to the store; quote the order number above.',
  ].join('\n');
}

// The receipts are written four at once, as the service's are.
const receipts = [];
let writing = 0;
function queueReceipt(order) {
  receipts.push(order);
  while (writing < 4 && receipts.length) void writeReceipt(receipts.shift());
}
async function writeReceipt(order) {
  writing++;
  try {
    const id = `receipt.order-${order.id}.${order.order_number}`;
    const message = await new MailComposer({
      from: { name: 'Bench store', address: 'no-reply@localhost' },
      to: { name: order.customer_name, address: order.customer_email },
      subject: `Your receipt for order ${order.order_number}`,
      text: receiptText(order),
      html: receiptHtml(order),
      messageId: `<${id}@localhost>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
      newline: 'windows',
    })
      .compile()
      .build();
    const path = join(outbox, `${id}.eml`);
    const temporary = join(outbox, `.${id}.${process.pid}.tmp`);
    writeFileSync(temporary, message);
    renameSync(temporary, path);
    recordReceipt({ ref: `order:${order.id}`, path });
  } catch (error) {
    console.error(error);
  } finally {
    writing--;
    if (receipts.length) queueReceipt(receipts.shift());
  }
}

async function pay(res, token, body) {
  if (!body?.payment_method || !body?.payment_number) return send(res, 422, { message: 'payment_method is required.' });
  const claimed = await pool.query({
    name: 'claim',
    text: `INSERT INTO payment_attempts (order_id, status, payment_number)
           SELECT id, 'pending', $2 FROM orders WHERE pay_token = $1 AND status = 'pending'
           ON CONFLICT DO NOTHING
           RETURNING id, (SELECT row_to_json(o) FROM orders o WHERE o.pay_token = $1) AS order`,
    values: [token, body.payment_number],
  });
  if (!claimed.rows.length) return send(res, 409, { message: 'This order is not awaiting payment.' });
  const { id: attemptId, order } = claimed.rows[0];
  // The gateway, in process as the sandbox: a number ending in 0002 is declined.
  if (body.payment_number.endsWith('0002')) {
    await pool.query('UPDATE payment_attempts SET status = $2 WHERE id = $1', [attemptId, 'failed']);
    return send(res, 402, { message: 'The payment was declined.' });
  }
  const transactionId = `sbx_${randomBytes(9).toString('hex')}`;
  order.status = 'approved';
  order.approved_at = new Date().toISOString();
  order.payment_number = body.payment_number;
  const payload = JSON.stringify({
    order_type: 'order_approved',
    order_number: order.order_number,
    order_status: 'approved',
    amount: order.amount,
    currency: order.currency,
    product_pid: order.product_pid,
    customer: { name: order.customer_name, email: order.customer_email },
    transaction_id: transactionId,
    created_at: order.created_at,
    approved_at: order.approved_at,
  });
  const settled = await pool.query({
    name: 'settle',
    text: `WITH attempt AS (
             UPDATE payment_attempts SET status = 'succeeded', transaction_id = $2 WHERE id = $1 AND status = 'pending'
             RETURNING order_id),
           approved AS (
             UPDATE orders o SET status = 'approved', approved_at = $3 FROM attempt
              WHERE o.id = attempt.order_id AND o.status = 'pending' RETURNING o.id),
           receipt AS (
             INSERT INTO customer_messages (channel, kind, ref) SELECT 'email', 'receipt', 'order:' || id FROM approved)
           INSERT INTO deliveries (message_id, webhook_id, order_id, payload)
           SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, approved.id, $4
             FROM approved JOIN webhooks w ON 'order_approved' = ANY (w.events)
           RETURNING id, message_id, payload, (SELECT url FROM webhooks WHERE id = webhook_id),
                     (SELECT secret FROM webhooks WHERE id = webhook_id)`,
    values: [attemptId, transactionId, order.approved_at, payload],
  });
  send(res, 200, { order_status: 'approved', order_number: order.order_number });
  for (const delivery of settled.rows) deliver(delivery);
  queueReceipt(order);
}

async function createOrder(res, body) {
  const token = randomBytes(16).toString('hex');
  const number = `PF-${randomBytes(6).toString('hex').toUpperCase()}`;
  await pool.query({
    name: 'create',
    text: `INSERT INTO orders (order_number, pay_token, product_pid, amount, customer_name, customer_email)
           VALUES ($1, $2, $3, $4, $5, $6)`,
    values: [number, token, body.product_pid, body.amount, body.customer?.name, body.customer?.email],
  });
  send(res, 201, { order_number: number, checkout_url: `http://127.0.0.1:${process.env.PORT}/pay/${token}` });
}

async function createWebhook(res, body) {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const { rows } = await pool.query('INSERT INTO webhooks (url, secret, events) VALUES ($1, $2, $3) RETURNING id', [
    body.url,
    secret,
    body.events,
  ]);
  send(res, 201, { id: rows[0].id, secret });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = req.url ?? '';
    let body;
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    } catch {
      return send(res, 400, { message: 'The body is not JSON.' });
    }
    const paying = req.method === 'POST' && /^\/pay\/[0-9a-f]{32}\/pay$/.test(url);
    if (url === '/v1/health') return send(res, 200, { status: 'ok' });
    if (!paying && req.headers.authorization !== `Bearer ${TOKEN}`)
      return send(res, 401, { message: 'Unauthenticated.' });
    const run = paying
      ? pay(res, url.slice(5, 37), body)
      : req.method === 'POST' && url === '/v1/orders'
        ? createOrder(res, body)
        : req.method === 'POST' && url === '/v1/webhooks'
          ? createWebhook(res, body)
          : Promise.resolve(send(res, 404, { message: 'Not found.' }));
    run.catch((error) => {
      console.error(error);
      if (!res.headersSent) send(res, 500, { message: 'Server error.' });
    });
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  rmSync(outbox, { recursive: true, force: true });
  process.exit(0);
});
