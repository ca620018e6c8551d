/**
 * `npm run bench`: the benchmark of issue #9. Creates a fresh database on the server of
 * DATABASE_URL, starts the service against it as a child process, seeds a store through the
 * service's own code, drives each scenario with autocannon from this process and prints one table.
 * See docs/performance.md for the method and the targets.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { promisify } from 'node:util';
import { Api } from './api';
import { createBenchDatabase, query } from './database';
import { errorRow, LoadSettings, LoadSpec, measure, Row } from './load';
import { BenchOptions, parseOptions, ScenarioName } from './options';
import { COUPON_CODE, orderBody, seedStore, Store } from './seed';
import { processTree, treeCpuSeconds } from './process-tree';
import { freePort, ROOT, startService, waitHealthy } from './service';
import { renderTable } from './table';
import { measureWebhooks, WebhookReceiver } from './webhooks';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** The service's V8 settings in production (docker/Dockerfile); NODE_OPTIONS overrides them. */
const SERVICE_NODE_OPTIONS = '--max-old-space-size=128';

function build(): void {
  log('npm run build');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * Asynchronous, not spawnSync: a blocked event loop misses the service closing an idle keep-alive
 * connection (after 5 s), and the first seed request then fails on it with "other side closed".
 */
async function createCredentials(env: Record<string, string>): Promise<{ store_id: number; token: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', 'scripts/bench/credentials.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`creating the seller and API key failed:\n${error.stderr ?? error.message}`);
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/**
 * Waits until the cluster has `count` workers, all started: healthy means only that the first one
 * listens (the others start after it, cluster.ts). A worker counts as started once it is nearly
 * idle, under 10 % of a core over half a second, so the first scenario does not measure start-up.
 */
async function waitForWorkers(primary: number, count: number, timeoutMs = 120_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let previous = new Map<number, number>();
  while (Date.now() < deadline) {
    const workers = processTree(primary).slice(1);
    const cpu = new Map(workers.map((pid) => [pid, treeCpuSeconds(pid) ?? 0]));
    const settled = workers.every((pid) => previous.has(pid) && cpu.get(pid)! - previous.get(pid)! < 0.05);
    if (workers.length === count && settled) return workers;
    previous = cpu;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the service did not reach ${count} started workers in ${timeoutMs} ms`);
}

/** The request each scenario repeats, or why it cannot run (what the seed could not create). */
function loadSpecs(store: Partial<Store>): Array<{ name: ScenarioName; title: string; spec: Omit<LoadSpec, 'scenario'> | string }> {
  let customer = 0;
  let orderIndex = 0;
  // New and returning customers: the email pool is small enough that most requests update one.
  const nextCustomer = () => 1000 + (customer++ % 5000);
  const missing = (what: string) => `not seeded: ${what} (see the seed notes below)`;
  return [
    { name: 'health', title: 'GET /v1/health (baseline)', spec: { method: 'GET', path: () => '/v1/health' } },
    {
      name: 'orders.create',
      title: 'POST /v1/orders',
      spec: store.productPid
        ? { method: 'POST', path: () => '/v1/orders', body: () => orderBody(store.productPid!, nextCustomer()) }
        : missing('product'),
    },
    {
      name: 'orders.create.coupon',
      title: 'POST /v1/orders + coupon',
      spec: store.productPid
        ? {
            method: 'POST',
            path: () => '/v1/orders',
            body: () => orderBody(store.productPid!, nextCustomer(), { coupon_code: COUPON_CODE }),
          }
        : missing('product'),
    },
    {
      name: 'orders.get',
      title: 'GET /v1/orders/{id}',
      spec: store.orderIds?.length
        ? { method: 'GET', path: () => `/v1/orders/${store.orderIds![orderIndex++ % store.orderIds!.length]}` }
        : missing('orders'),
    },
    {
      name: 'customers.orders',
      title: 'GET /v1/customers/{id}/orders',
      spec: store.customerId
        ? { method: 'GET', path: () => `/v1/customers/${store.customerId}/orders` }
        : missing('customer'),
    },
    {
      name: 'plans.subscribers',
      title: 'GET /v1/plans/{id}/subscribers',
      spec: store.planId
        ? { method: 'GET', path: () => `/v1/plans/${store.planId}/subscribers` }
        : missing('plan'),
    },
    { name: 'discounts.get', title: 'GET /v1/discounts/{code}', spec: { method: 'GET', path: () => `/v1/discounts/${COUPON_CODE}` } },
  ];
}

async function bench(options: BenchOptions): Promise<void> {
  if (options.build) build();
  const database = await createBenchDatabase(options.databaseUrl);
  log(`database ${database.name}`);
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    DATA_DIR: `/tmp/commerce-bench-${process.pid}`,
    NODE_ENV: 'production',
    // Request logging at info costs a share of throughput; set LOG_LEVEL=info to include it.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // The limiter still runs on every request; only its ceiling is out of the way of the load.
    RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '1000000000',
    // The receiver listens on loopback, which production refuses by default (decisions §7).
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    // As in docker/Dockerfile: a heap limit, without which V8 lets the old generation grow to
    // 150+ MB of garbage under load on a machine with gigabytes free (RSS near 300 MB).
    NODE_OPTIONS: process.env.NODE_OPTIONS ?? SERVICE_NODE_OPTIONS,
    WEB_CONCURRENCY: options.workers,
  };
  const service = startService({ ts: options.ts, env });
  const receiver = new WebhookReceiver();
  const rows: Row[] = [];
  let store: Partial<Store>;
  try {
    await waitHealthy(service);
    log(`service pid ${service.pid} on ${service.url}`);
    if (options.workers !== '1') {
      // Healthy means one worker listens; the others start after it (cluster.ts).
      const workers = await waitForWorkers(service.pid, options.workers === 'auto' ? availableParallelism() : Number(options.workers));
      log(`workers ${workers.join(', ')}`);
    }
    const credentials = await createCredentials(env);
    const api = new Api(service.url, credentials.token);
    log(`seeding the store${options.orders ? ` with ${options.orders} bulk orders` : ''}`);
    store = await seedStore(api, database.url, credentials.store_id, options.orders);
    if (store.bulk?.orders) log(`bulk-inserted ${store.bulk.orders} orders over ${store.bulk.customers} customers in ${store.bulk.seconds.toFixed(1)} s`);

    const settings: LoadSettings = {
      baseUrl: service.url,
      headers: api.authHeader,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      servicePid: service.pid,
    };
    for (const { name, title, spec } of loadSpecs(store)) {
      if (!options.scenarios.includes(name)) continue;
      for (const connections of options.connections) {
        if (typeof spec === 'string') {
          rows.push(errorRow(title, connections, spec));
          continue;
        }
        log(`${title} at ${connections} connections`);
        try {
          rows.push(await measure(settings, { ...spec, scenario: title }, connections));
        } catch (error) {
          rows.push(errorRow(title, connections, error instanceof Error ? error.message : String(error)));
        }
        if (service.child.exitCode !== null) throw new Error(`the service exited:\n${service.output()}`);
      }
    }

    if (options.scenarios.includes('webhooks')) {
      try {
        if (!store.productPid) throw new Error('not seeded: product');
        const url = await receiver.start();
        await api.post('/v1/webhooks', { url, events: ['order_approved'], name: 'bench receiver' });
        for (const [runIndex, connections] of options.connections.entries()) {
          log(`webhooks: ${options.approvals} approvals at ${connections} connections`);
          rows.push(
            await measureWebhooks({
              api,
              receiver,
              productPid: store.productPid,
              approvals: options.approvals,
              connections,
              timeoutSeconds: options.webhookTimeoutSeconds,
              servicePid: service.pid,
              runIndex,
            }),
          );
        }
      } catch (error) {
        rows.push(errorRow('webhooks: approvals → deliveries', null, error instanceof Error ? error.message : String(error)));
      }
    }
  } finally {
    await receiver.stop();
    await service.stop();
  }

  const [{ orders }] = await query<{ orders: string }>(database.url, 'SELECT count(*) AS orders FROM orders').catch(() => [{ orders: '?' }]);
  if (options.keepDatabase) log(`kept database ${database.url}`);
  else await database.drop();

  const out: string[] = [];
  out.push(
    `cores: ${cpus().length} (${cpus()[0]?.model?.trim() ?? 'unknown'}), memory ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ` +
      `service ${options.ts ? 'ts-node' : 'dist'}, workers ${options.workers === 'auto' ? `auto (${availableParallelism()})` : options.workers} (NODE_OPTIONS ${process.env.NODE_OPTIONS ?? SERVICE_NODE_OPTIONS}), ` +
      `pool ${process.env.DATABASE_POOL_SIZE ?? 'default'}, ` +
      `${options.durationSeconds} s per run after ${options.warmupSeconds} s warm-up, orders in the store at the end: ${orders}` +
      (store.bulk?.orders ? ` (${store.bulk.orders} bulk over ${store.bulk.customers} customers)` : ''),
  );
  out.push('');
  out.push(renderTable(rows));
  const notes = [...(store.notes ?? []), ...rows.filter((r) => r.note).map((r) => `${r.scenario} @${r.connections}: ${r.note}`)];
  if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (options === 'help') return;
  await bench(options);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
