import { defaultFloorScript } from './floor';
import { parseArgs } from 'node:util';

export const SCENARIOS = [
  'health',
  'orders.create',
  'orders.create.coupon',
  'orders.create.coupon.limited',
  'orders.get',
  'customers.orders',
  'plans.subscribers',
  'discounts.get',
  'checkout.pay',
  'webhooks',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  databaseUrl: string;
  /** Orders bulk-inserted on top of the few created through the API. */
  orders: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  approvals: number;
  webhookTimeoutSeconds: number;
  scenarios: ScenarioName[];
  /** WEB_CONCURRENCY of the service: 1 is one process, more a cluster primary and its workers. */
  workers: string;
  /** Run `src/main.ts` through ts-node instead of building `dist/`. */
  ts: boolean;
  build: boolean;
  keepDatabase: boolean;
  /** The floor server's script, run beside the service (null: no floor). */
  floor: string | null;
  /** Uses of the coupon of `orders.create.coupon.limited`. */
  couponLimit: number;
  /** Pending orders created for each connection count of `checkout.pay` (each request pays one). */
  payOrders: number;
}

/** `checkout.pay`'s default pool: enough for this many payments a second over the warm-up and the run. */
export const PAY_ORDERS_PER_SECOND = 2000;

const HELP = `npm run bench -- [options]   (DATABASE_URL must point at a PostgreSQL server)

  --orders N             bulk-insert N orders spread over N/10 customers (default 0)
  --duration S           seconds per load run (default 10)
  --warmup S             unmeasured seconds before each run (default 2)
  --connections 10,50    connection counts to run each scenario at (default 10,50)
  --approvals N          approvals per webhook-throughput run (default 1000)
  --webhook-timeout S    give up waiting for deliveries after S seconds (default 60)
  --scenarios a,b        subset of: ${SCENARIOS.join(', ')}
  --workers N|auto       the service's WEB_CONCURRENCY (default: WEB_CONCURRENCY or 1)
  --ts                   run the service with ts-node (transpile-only) instead of dist/
  --no-build             use the existing dist/ without running npm run build
  --keep-db              do not drop the benchmark database at the end
  --floor PATH           the floor server run beside the service (default ../shared/bench/floor-server.mjs
                         next to the repository, when it exists)
  --no-floor             do not run the floor
  --coupon-limit N       uses of the limited coupon of orders.create.coupon.limited (default 1000)
  --pay-orders N         pending orders for each checkout.pay run, one per request
                         (default ${PAY_ORDERS_PER_SECOND} per second of warm-up and run)
`;

function positiveInt(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${raw}`);
  return value;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      orders: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      approvals: { type: 'string' },
      'webhook-timeout': { type: 'string' },
      scenarios: { type: 'string' },
      workers: { type: 'string' },
      ts: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      'keep-db': { type: 'boolean', default: false },
      floor: { type: 'string' },
      'no-floor': { type: 'boolean', default: false },
      'coupon-limit': { type: 'string' },
      'pay-orders': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 'help';
  }
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required: the benchmark creates a fresh database on that server.');
  const scenarios = (values.scenarios
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [...SCENARIOS]) as ScenarioName[];
  const unknown = scenarios.filter((s) => !SCENARIOS.includes(s));
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  const workers = values.workers ?? env.WEB_CONCURRENCY ?? '1';
  if (!/^(auto|[1-9]\d*)$/.test(workers))
    throw new Error(`--workers must be a positive integer or auto, got ${workers}`);
  const connections = (values.connections ?? '10,50').split(',').map((c) => positiveInt('connections', c.trim(), 10));
  const durationSeconds = positiveInt('duration', values.duration, 10);
  const warmupSeconds = positiveInt('warmup', values.warmup, 2, 0);
  return {
    databaseUrl,
    orders: positiveInt('orders', values.orders, 0, 0),
    durationSeconds,
    warmupSeconds,
    connections,
    approvals: positiveInt('approvals', values.approvals, 1000),
    webhookTimeoutSeconds: positiveInt('webhook-timeout', values['webhook-timeout'], 60),
    scenarios,
    workers,
    ts: values.ts,
    build: !values['no-build'] && !values.ts,
    keepDatabase: values['keep-db'],
    floor: values['no-floor'] ? null : (values.floor ?? defaultFloorScript()),
    couponLimit: positiveInt('coupon-limit', values['coupon-limit'], 1000),
    payOrders: positiveInt(
      'pay-orders',
      values['pay-orders'],
      PAY_ORDERS_PER_SECOND * (warmupSeconds + durationSeconds),
    ),
  };
}
