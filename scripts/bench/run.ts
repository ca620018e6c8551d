/**
 * `npm run bench`: the benchmark of issue #9. Creates a fresh database on the server of
 * DATABASE_URL, starts the service against it as a child process, seeds a store through the
 * service's own code, drives each scenario with autocannon from this process and prints one table.
 * See docs/performance.md for the method and the targets.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { promisify } from 'node:util';
import { Api } from './api';
import { createBenchDatabase, PaymentConsistency, paymentConsistency, query } from './database';
import { errorRow, LoadSettings, LoadSpec, measure, Row } from './load';
import { BenchOptions, parseOptions, ScenarioName } from './options';
import { COUPON_CODE, orderBody, PayableOrders, SANDBOX_PAYMENT, seedPayableOrders, seedStore, Store } from './seed';
import { Floor, FLOOR_PRODUCT, PIPELINE_FLOOR_SCRIPT, startFloor } from './floor';
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
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'scripts/bench/credentials.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  ).catch((error: { stderr?: string; message: string }) => {
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

/**
 * Waits until the service's processes have used under 10 % of a core for 3 s in a row (its
 * queues drained: an idle worker polls every 2 s, so a shorter quiet spell proves nothing), at
 * most `timeoutMs`; answers how long it waited.
 */
async function waitForIdle(pid: number, timeoutMs = 300_000): Promise<number> {
  const started = Date.now();
  let previous = treeCpuSeconds(pid) ?? 0;
  let quiet = 0;
  while (Date.now() - started < timeoutMs && quiet < 6) {
    await new Promise((r) => setTimeout(r, 500));
    const cpu = treeCpuSeconds(pid) ?? 0;
    quiet = cpu - previous < 0.05 ? quiet + 1 : 0;
    previous = cpu;
  }
  return Date.now() - started;
}

type Spec = Omit<LoadSpec, 'scenario'>;

/** How long `checkout.pay` waits after its run for the attempts of requests that were in flight. */
const PAY_SETTLE_MS = 10_000;

/** What the limited-coupon scenario reports after its measured run: the uses sold against the limit. */
function soldNote(
  use: { usedCount: number; usesLimit: number; orders: number },
  succeeded: number | undefined,
): Partial<Row> {
  const oversold = Math.max(0, use.orders - use.usesLimit, use.usedCount - use.usesLimit);
  const exact = use.usedCount === use.orders ? '' : ` — used_count ${use.usedCount} ≠ ${use.orders} orders`;
  return {
    oversold,
    note: `${use.orders}/${use.usesLimit} uses sold (${succeeded ?? '?'} created), used_count ${use.usedCount}, oversold ${oversold}${exact}`,
  };
}

/**
 * What `checkout.pay` reports after its measured run: the orders its requests paid (warm-up
 * included), each of which must have exactly one succeeded payment attempt.
 */
function paidNote(check: PaymentConsistency, handedOut: number, pool: number): string {
  const problems = [
    check.approvedTwice && `${check.approvedTwice} with two or more succeeded attempts`,
    check.approvedWithoutAttempt && `${check.approvedWithoutAttempt} approved without a succeeded attempt`,
    check.succeededNotApproved && `${check.succeededNotApproved} with a succeeded attempt but not approved`,
    check.paid - check.approved && `${check.paid - check.approved} moved to a state other than approved`,
  ].filter(Boolean);
  const tail = [
    check.open && `${check.open} attempts still open`,
    handedOut > pool && `the ${pool} orders ran out (raise --pay-orders): ${handedOut - pool} requests repeated one`,
  ].filter(Boolean);
  const summary = problems.length
    ? `INCONSISTENT: ${check.paid} orders paid, ${check.approvedOnce} approved once; ${problems.join(', ')}`
    : `${check.paid} orders paid (warm-up included), each approved with exactly one succeeded attempt, none twice`;
  return [summary, ...tail].join('; ');
}

/**
 * The request each scenario repeats, or why it cannot run (what the seed could not create), and
 * the same request to the floor server where it has the route (null where it has not).
 */
function loadSpecs(
  store: Partial<Store>,
  context: { api: Api; databaseUrl: string; floor: Floor | null; couponLimit: number; payOrders: number },
): Array<{ name: ScenarioName; title: string; spec: Spec | string; floor: Spec | null }> {
  let customer = 0;
  let orderIndex = 0;
  let floorIndex = 0;
  // New and returning customers: the email pool is small enough that most requests update one.
  const nextCustomer = () => 1000 + (customer++ % 5000);
  const missing = (what: string) => `not seeded: ${what} (see the seed notes below)`;
  const { api, floor } = context;
  const floorOrder = (extra: Record<string, unknown> = {}): Spec => ({
    method: 'POST',
    path: () => '/v1/orders',
    body: () => orderBody(FLOOR_PRODUCT, nextCustomer(), extra),
  });
  // The limited coupon: the warm-up runs on the unlimited one, then each measured run on a new
  // coupon with `couponLimit` uses; once they are gone its 422s are the scenario, not errors.
  let limitedRuns = 0;
  let limited = COUPON_CODE;
  let floorLimited = COUPON_CODE;
  const limitedSpec: Spec | string = store.productPid
    ? {
        method: 'POST',
        path: () => '/v1/orders',
        body: () => orderBody(store.productPid!, nextCustomer(), { coupon_code: limited }),
        expected: (status, body) => status === 422 && body.includes('Coupon has no uses left.'),
        beforeMeasure: async () => {
          limited = `FLASH${++limitedRuns}`;
          await api.post('/v1/discounts', {
            code: limited,
            type: 'percent',
            value: 10,
            uses_limit: context.couponLimit,
          });
        },
        afterMeasure: async (row) => {
          const [use] = await query<{ used_count: number; uses_limit: number; orders: number }>(
            context.databaseUrl,
            'SELECT d.used_count, d.uses_limit, (SELECT count(*)::int FROM orders o WHERE o.discount_id = d.id) AS orders FROM discounts d WHERE d.code = $1',
            [limited],
          );
          const result = soldNote(
            { usedCount: use.used_count, usesLimit: use.uses_limit, orders: use.orders },
            row.succeeded,
          );
          limited = COUPON_CODE;
          return result;
        },
      }
    : missing('product');
  // Each request pays the next pending order of its run's pool, with the sandbox, as the checkout's
  // JSON client does (no bearer token: the pay_token is the credential).
  let payRuns = 0;
  let payable: PayableOrders | null = null;
  let handedOut = 0;
  const paySpec: Spec | string = store.productPid
    ? {
        method: 'POST',
        headers: { accept: 'application/json' },
        path: () => payable!.payPath(payable!.tokens[handedOut++ % payable!.tokens.length]),
        body: () => SANDBOX_PAYMENT,
        beforeRun: async () => {
          const started = Date.now();
          payable = await seedPayableOrders(api, context.databaseUrl, store.productPid!, context.payOrders, ++payRuns);
          handedOut = 0;
          log(`checkout.pay: ${context.payOrders} pending orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        },
        afterMeasure: async (row) => {
          // Requests still in flight when autocannon stopped finish on the server: wait for their attempts.
          let check = await paymentConsistency(context.databaseUrl, payable!.orderNumberPrefix);
          for (let waited = 0; check.open > 0 && waited < PAY_SETTLE_MS; waited += 200) {
            await new Promise((resolve) => setTimeout(resolve, 200));
            check = await paymentConsistency(context.databaseUrl, payable!.orderNumberPrefix);
          }
          const note = paidNote(check, handedOut, payable!.tokens.length);
          return { note: row.note ? `${note}; ${row.note}` : note };
        },
      }
    : missing('product');
  return [
    {
      name: 'health',
      title: 'GET /v1/health (baseline)',
      spec: { method: 'GET', path: () => '/v1/health' },
      floor: floor && { method: 'GET', path: () => '/v1/health' },
    },
    {
      name: 'orders.create',
      title: 'POST /v1/orders',
      spec: store.productPid
        ? { method: 'POST', path: () => '/v1/orders', body: () => orderBody(store.productPid!, nextCustomer()) }
        : missing('product'),
      floor: floor && floorOrder(),
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
      floor: floor && floorOrder({ coupon_code: COUPON_CODE }),
    },
    {
      name: 'orders.create.coupon.limited',
      title: `POST /v1/orders + coupon of ${context.couponLimit} uses`,
      spec: limitedSpec,
      floor: floor && {
        method: 'POST',
        path: () => '/v1/orders',
        body: () => orderBody(FLOOR_PRODUCT, nextCustomer(), { coupon_code: floorLimited }),
        expected: (status) => status === 422,
        beforeMeasure: async () => {
          floorLimited = `FLASH${limitedRuns}`;
          await floor.createCoupon(floorLimited, context.couponLimit);
        },
        afterMeasure: async (row) => {
          const result = soldNote(await floor.couponUse(floorLimited), row.succeeded);
          floorLimited = COUPON_CODE;
          return result;
        },
      },
    },
    {
      name: 'orders.get',
      title: 'GET /v1/orders/{id}',
      spec: store.orderIds?.length
        ? { method: 'GET', path: () => `/v1/orders/${store.orderIds![orderIndex++ % store.orderIds!.length]}` }
        : missing('orders'),
      floor: floor && {
        method: 'GET',
        path: () => `/v1/orders/${floor.orderIds[floorIndex++ % floor.orderIds.length]}`,
      },
    },
    {
      name: 'customers.orders',
      title: 'GET /v1/customers/{id}/orders',
      spec: store.customerId
        ? { method: 'GET', path: () => `/v1/customers/${store.customerId}/orders` }
        : missing('customer'),
      floor: null,
    },
    {
      name: 'plans.subscribers',
      title: 'GET /v1/plans/{id}/subscribers',
      spec: store.planId ? { method: 'GET', path: () => `/v1/plans/${store.planId}/subscribers` } : missing('plan'),
      floor: null,
    },
    {
      name: 'discounts.get',
      title: 'GET /v1/discounts/{code}',
      spec: { method: 'GET', path: () => `/v1/discounts/${COUPON_CODE}` },
      floor: null,
    },
    {
      name: 'checkout.pay',
      title: 'POST {pay_url}/token/{pay_token}/pay',
      spec: paySpec,
      floor: null,
    },
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
    // The receiver listens on loopback, which production refuses by default (README, *Choices where the contract is silent*).
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Production turns the sandbox gateway off (README, *Configuration*); the seed and the pay scenarios pay with it.
    PAYMENT_SANDBOX: 'true',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    // As in docker/Dockerfile: a heap limit, without which V8 lets the old generation grow to
    // 150+ MB of garbage under load on a machine with gigabytes free (RSS near 300 MB).
    NODE_OPTIONS: process.env.NODE_OPTIONS ?? SERVICE_NODE_OPTIONS,
    WEB_CONCURRENCY: options.workers,
  };
  const service = startService({ ts: options.ts, env });
  const receiver = new WebhookReceiver();
  const rows: Row[] = [];
  let floor: Floor | null = null;
  let pipelineFloor: Floor | null = null;
  let store: Partial<Store>;
  try {
    await waitHealthy(service);
    log(`service pid ${service.pid} on ${service.url}`);
    if (options.workers !== '1') {
      // Healthy means one worker listens; the others start after it (cluster.ts).
      const workers = await waitForWorkers(
        service.pid,
        options.workers === 'auto' ? availableParallelism() : Number(options.workers),
      );
      log(`workers ${workers.join(', ')}`);
    }
    const credentials = await createCredentials(env);
    const api = new Api(service.url, credentials.token);
    log(`seeding the store${options.orders ? ` with ${options.orders} bulk orders` : ''}`);
    store = await seedStore(api, database.url, credentials.store_id, options.orders);
    if (store.bulk?.orders)
      log(
        `bulk-inserted ${store.bulk.orders} orders over ${store.bulk.customers} customers in ${store.bulk.seconds.toFixed(1)} s`,
      );

    if (options.floor) {
      log(`floor ${options.floor}`);
      floor = await startFloor(options.floor, options.databaseUrl);
      log(`floor pid ${floor.service.pid} on ${floor.service.url}`);
    }

    const settings: LoadSettings = {
      baseUrl: service.url,
      headers: api.authHeader,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      servicePid: service.pid,
    };
    const floorSettings: LoadSettings | null = floor && {
      ...settings,
      baseUrl: floor.service.url,
      headers: floor.api.authHeader,
      servicePid: floor.service.pid,
    };
    const specs = loadSpecs(store, {
      api,
      databaseUrl: database.url,
      floor,
      couponLimit: options.couponLimit,
      payOrders: options.payOrders,
    });
    for (const { name, title, spec, floor: floorSpec } of specs) {
      if (!options.scenarios.includes(name)) continue;
      for (const connections of options.connections) {
        if (typeof spec === 'string') {
          rows.push(errorRow(title, connections, spec));
          continue;
        }
        log(`${title} at ${connections} connections`);
        let row: Row;
        try {
          row = await measure(settings, { ...spec, scenario: title }, connections);
        } catch (error) {
          row = errorRow(title, connections, error instanceof Error ? error.message : String(error));
        }
        rows.push(row);
        if (service.child.exitCode !== null) throw new Error(`the service exited:\n${service.output()}`);
        // The floor right after, at the same connections: the two figures share the machine's state.
        if (floorSpec && floorSettings) {
          log(`${title} at ${connections} connections: floor`);
          try {
            row.floor = await measure(floorSettings, { ...floorSpec, scenario: `${title} (floor)` }, connections);
          } catch (error) {
            row.floor = errorRow(
              `${title} (floor)`,
              connections,
              error instanceof Error ? error.message : String(error),
            );
          }
        }
      }
    }

    if (options.scenarios.includes('webhooks')) {
      try {
        if (!store.productPid) throw new Error('not seeded: product');
        const url = await receiver.start();
        await api.post('/v1/webhooks', { url, events: ['order_approved'], name: 'bench receiver' });
        if (options.floor) {
          pipelineFloor = await startFloor(PIPELINE_FLOOR_SCRIPT, options.databaseUrl);
          await pipelineFloor.api.post('/v1/webhooks', { url, events: ['order_approved'] });
          log(`pipeline floor pid ${pipelineFloor.service.pid} on ${pipelineFloor.service.url}`);
        }
        for (const [runIndex, connections] of options.connections.entries()) {
          // The jobs earlier scenarios left (the receipts of checkout.pay's payments) are worked
          // first, so this run's CPU and receipts are its own.
          const idleAfter = await waitForIdle(service.pid);
          log(`webhooks: the service went idle after ${(idleAfter / 1000).toFixed(1)} s (earlier scenarios' jobs)`);
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
              databaseUrl: database.url,
            }),
          );
          if (pipelineFloor) {
            // The floor right after, at the same connections, as for the other scenarios.
            log(`webhooks: ${options.approvals} approvals at ${connections} connections: pipeline floor`);
            const row = rows[rows.length - 1];
            row.floor = await measureWebhooks({
              api: pipelineFloor.api,
              receiver,
              productPid: FLOOR_PRODUCT,
              approvals: options.approvals,
              connections,
              timeoutSeconds: options.webhookTimeoutSeconds,
              servicePid: pipelineFloor.service.pid,
              runIndex,
              databaseUrl: pipelineFloor.database.url,
            });
            // The pipeline's CPU as a multiple of its floor's (docs/performance.md, twelfth round).
            if (row.cpuMsPerRequest && row.floor.cpuMsPerRequest)
              row.note = [
                row.note,
                `CPU per paid order ${(row.cpuMsPerRequest / row.floor.cpuMsPerRequest).toFixed(2)} times the pipeline floor's`,
              ]
                .filter(Boolean)
                .join('; ');
          }
        }
      } catch (error) {
        rows.push(
          errorRow('webhooks: approvals → deliveries', null, error instanceof Error ? error.message : String(error)),
        );
      }
    }
  } finally {
    await receiver.stop();
    await service.stop();
    await floor?.stop();
    await pipelineFloor?.stop();
    // The service's files: uploads and the customer emails (.eml, no SMTP here) of every payment.
    await rm(env.DATA_DIR, { recursive: true, force: true });
  }

  const [{ orders }] = await query<{ orders: string }>(database.url, 'SELECT count(*) AS orders FROM orders').catch(
    () => [{ orders: '?' }],
  );
  if (options.keepDatabase) log(`kept database ${database.url}`);
  else await database.drop();

  const out: string[] = [];
  out.push(
    `cores: ${cpus().length} (${cpus()[0]?.model?.trim() ?? 'unknown'}), memory ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ` +
      `service ${options.ts ? 'ts-node' : 'dist'}, workers ${options.workers === 'auto' ? `auto (${availableParallelism()})` : options.workers} (NODE_OPTIONS ${process.env.NODE_OPTIONS ?? SERVICE_NODE_OPTIONS}), ` +
      `pool ${process.env.DATABASE_POOL_SIZE ?? 'default'}, floor ${options.floor ?? 'none'}, ` +
      `${options.durationSeconds} s per run after ${options.warmupSeconds} s warm-up, orders in the store at the end: ${orders}` +
      (store.bulk?.orders ? ` (${store.bulk.orders} bulk over ${store.bulk.customers} customers)` : ''),
  );
  out.push('');
  out.push(renderTable(rows));
  const noted = rows.flatMap((r) => [r, ...(r.floor ? [r.floor] : [])]).filter((r) => r.note);
  const notes = [...(store.notes ?? []), ...noted.map((r) => `${r.scenario} @${r.connections}: ${r.note}`)];
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
