import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Api, mapConcurrent } from './api';
import { BenchDatabase, createBenchDatabase, query } from './database';
import { orderBody } from './seed';
import { freePort, ROOT, Service, waitHealthy } from './service';

/**
 * The floor: a bare node:http + pg server doing the same database work as the service's hot routes
 * in one prepared statement each (`floor-server.mjs`, kept outside this repository so the yardstick
 * does not move with the code it measures). It runs beside the service, on a database of its own
 * on the same server, and each scenario is read as a share of its figure in the same run.
 */
export const FLOOR_TOKEN = 'sk_limit';
export const FLOOR_PRODUCT = 'prd_limit';

/** `--floor PATH`, else `../shared/bench/floor-server.mjs` beside the repository, if there. */
export function defaultFloorScript(): string | null {
  const path = resolve(ROOT, '..', 'shared', 'bench', 'floor-server.mjs');
  return existsSync(path) ? path : null;
}

/**
 * The paid-order pipeline's floor (`pipeline-floor.mjs`, in this repository: the shared floor has
 * no payments, deliveries or receipts): the `webhooks` scenario run against the least work its
 * steps can do, with the guarantees that cost something while nothing fails.
 */
export const PIPELINE_FLOOR_SCRIPT = resolve(__dirname, 'pipeline-floor.mjs');

export interface Floor {
  service: Service;
  database: BenchDatabase;
  api: Api;
  /** Ids of orders created through the floor's own POST: its GET /v1/orders/{id} rotation. */
  orderIds: number[];
  /** A fresh coupon with `usesLimit` uses (10 %), for one limited run. */
  createCoupon(code: string, usesLimit: number): Promise<void>;
  /** The coupon's use count and the orders that hold it. */
  couponUse(code: string): Promise<{ usedCount: number; usesLimit: number; orders: number }>;
  stop(): Promise<void>;
}

export async function startFloor(script: string, adminUrl: string): Promise<Floor> {
  const database = await createBenchDatabase(adminUrl);
  // Run from the project root: the script takes `pg` from the directory it is run in.
  const env = { ...process.env, DATABASE_URL: database.url };
  await promisify(execFile)(process.execPath, [script, '--setup'], { cwd: ROOT, env }).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(`floor setup failed: ${error.stderr ?? error.message}`);
    },
  );
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-5000)));
  child.stderr!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-5000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const service: Service = {
    child,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
  await waitHealthy(service, 30_000);
  const api = new Api(service.url, FLOOR_TOKEN);
  const numbers = await mapConcurrent(
    Array.from({ length: 24 }, (_, i) => i),
    5,
    async (i) => (await api.post<{ order_number: string }>('/v1/orders', orderBody(FLOOR_PRODUCT, i))).order_number,
  );
  const rows = await query<{ id: number }>(
    database.url,
    'SELECT id FROM orders WHERE order_number = ANY($1) ORDER BY id',
    [numbers],
  );
  return {
    service,
    database,
    api,
    orderIds: rows.map((r) => r.id),
    async createCoupon(code, usesLimit) {
      await query(database.url, 'INSERT INTO coupons (store_id, code, percent, uses_limit) VALUES (1, $1, 10, $2)', [
        code,
        usesLimit,
      ]);
    },
    async couponUse(code) {
      const [row] = await query<{ used_count: number; uses_limit: number; orders: number }>(
        database.url,
        'SELECT c.used_count, c.uses_limit, (SELECT count(*)::int FROM orders o WHERE o.coupon_id = c.id) AS orders FROM coupons c WHERE c.code = $1',
        [code],
      );
      return { usedCount: row.used_count, usesLimit: row.uses_limit, orders: row.orders };
    },
    async stop() {
      await service.stop();
      await database.drop();
    },
  };
}
