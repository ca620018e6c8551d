import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Api, mapConcurrent } from './api';
import { errorRow, Row } from './load';
import { approve, CreatedOrder, orderBody } from './seed';
import { TreeMemorySampler, treeCpuSeconds } from './process-tree';

/** A local endpoint that notes when each order's `order_approved` delivery arrives. */
export class WebhookReceiver {
  private server?: Server;
  private readonly arrivals = new Map<string, number>();
  private waiters: Array<() => void> = [];
  received = 0;

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received++;
        try {
          const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (payload.order_type === 'order_approved' && !this.arrivals.has(payload.order_number)) {
            this.arrivals.set(payload.order_number, performance.now());
          }
        } catch {
          // not a JSON payload: counted in `received`, ignored otherwise
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  arrivalOf(orderNumber: string): number | undefined {
    return this.arrivals.get(orderNumber);
  }

  /** Resolves when every number has arrived or at `deadline` (performance.now()). */
  async waitFor(numbers: string[], deadline: number): Promise<void> {
    while (numbers.some((n) => !this.arrivals.has(n)) && performance.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface WebhookRun {
  api: Api;
  receiver: WebhookReceiver;
  productPid: string;
  approvals: number;
  connections: number;
  timeoutSeconds: number;
  servicePid: number;
  runIndex: number;
  /** The service's database: the receipts of the approvals are counted there. */
  databaseUrl: string;
}

/**
 * Resolves when every order of `numbers` has its receipt recorded sent (the customer-emails job's
 * once-only record, README *Customer emails*), or at `deadline`; answers how many had, and when
 * the poll first saw the last of them (performance.now() clock). Polled every 50 ms on one
 * connection (a connection per poll would start a PostgreSQL backend 20 times a second beside the
 * measured service), through the records' unique index (channel, kind, ref).
 */
async function waitForReceipts(
  databaseUrl: string,
  numbers: string[],
  deadline: number,
): Promise<{ recorded: number; at: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM orders WHERE order_number = ANY($1)', [
      numbers,
    ]);
    const refs = rows.map((row) => `order:${row.id}`);
    let recorded = 0;
    let at = performance.now();
    for (;;) {
      const {
        rows: [count],
      } = await client.query<{ recorded: number }>(
        `SELECT count(*)::int AS recorded FROM customer_messages
          WHERE channel = 'email' AND kind = 'receipt' AND ref = ANY($1) AND state = 'sent'`,
        [refs],
      );
      const now = performance.now();
      if (count.recorded > recorded) {
        recorded = count.recorded;
        at = now;
      }
      if (recorded >= numbers.length || now >= deadline) return { recorded, at };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
}

/**
 * Webhook throughput: `approvals` pending orders are created first (not timed); then they are
 * approved through the sandbox pay route with `connections` in flight, and the clock runs from
 * the first approval request until the receiver holds every `order_approved` delivery.
 * Requests/s is deliveries per second over that span; p50/p99 are per order, from its approval
 * request to its delivery; errors count failed approvals plus deliveries that never came.
 */
export async function measureWebhooks(run: WebhookRun): Promise<Row> {
  const scenario = `webhooks: ${run.approvals} approvals → deliveries`;
  let orders: CreatedOrder[];
  try {
    orders = await mapConcurrent(
      Array.from({ length: run.approvals }, (_, i) => i),
      20,
      (i) => run.api.post<CreatedOrder>('/v1/orders', orderBody(run.productPid, 100_000 * (run.runIndex + 1) + i)),
    );
  } catch (error) {
    return errorRow(
      scenario,
      run.connections,
      `creating the orders: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  const sampler = new TreeMemorySampler(run.servicePid);
  sampler.start();
  const sentAt = new Map<string, number>();
  const failed = new Set<string>();
  let firstFailure: string | undefined;
  const cpuBefore = treeCpuSeconds(run.servicePid);
  const first = performance.now();
  await mapConcurrent(orders, run.connections, async (order) => {
    sentAt.set(order.order_number, performance.now());
    try {
      await approve(run.api, order);
    } catch (error) {
      failed.add(order.order_number);
      firstFailure ??= error instanceof Error ? error.message : String(error);
    }
  });
  const approvalsDone = performance.now();
  if (failed.size === orders.length) {
    sampler.stop();
    return errorRow(scenario, run.connections, `every approval failed; first: ${firstFailure}`);
  }
  // An approval that failed sends nothing: waiting for it would only run out the timeout.
  const numbers = orders.map((o) => o.order_number).filter((n) => !failed.has(n));
  // A paid order is done when its receipt is written too: the CPU is counted up to the later of
  // both, each awaited at once (the receipts may be in before the deliveries, or after).
  const deadline = first + run.timeoutSeconds * 1000;
  const [, receipts] = await Promise.all([
    run.receiver.waitFor(numbers, deadline),
    waitForReceipts(run.databaseUrl, numbers, deadline),
  ]);
  const memory = sampler.stop();
  const cpuAfter = treeCpuSeconds(run.servicePid);

  const arrivals = numbers.map((n) => run.receiver.arrivalOf(n)).filter((t): t is number => t !== undefined);
  const missing = numbers.length - arrivals.length;
  const lastArrival = arrivals.length ? Math.max(...arrivals) : performance.now();
  const span = (lastArrival - first) / 1000;
  const latencies = numbers
    .filter((n) => run.receiver.arrivalOf(n) !== undefined)
    .map((n) => run.receiver.arrivalOf(n)! - sentAt.get(n)!)
    .sort((a, b) => a - b);
  const notes = [
    `approvals answered in ${((approvalsDone - first) / 1000).toFixed(2)} s; ${arrivals.length}/${orders.length} delivered ` +
      `${missing ? `(gave up after ${run.timeoutSeconds} s)` : `within ${span.toFixed(2)} s of the first approval`}`,
  ];
  notes.push(
    `receipts: ${receipts.recorded}/${numbers.length} recorded within ${((receipts.at - first) / 1000).toFixed(2)} s of the first approval`,
  );
  if (firstFailure) notes.push(`first failed approval: ${firstFailure}`);
  return {
    scenario,
    connections: run.connections,
    requestsPerSecond: arrivals.length / Math.max(span, 0.001),
    p50: latencies.length ? percentile(latencies, 50) : null,
    p99: latencies.length ? percentile(latencies, 99) : null,
    errors: failed.size + missing + (numbers.length - receipts.recorded),
    ...memory,
    // Per approval: the approval request, its delivery and its receipt.
    cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null ? (1000 * (cpuAfter - cpuBefore)) / orders.length : null,
    note: notes.join('; '),
  };
}
