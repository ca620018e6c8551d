import autocannon from 'autocannon';
import { TreeMemorySampler, treeCpuSeconds } from './process-tree';

export interface Row {
  scenario: string;
  connections: number | null;
  requestsPerSecond: number | null;
  p50: number | null;
  p99: number | null;
  errors: number | null;
  /** Summed over the service's processes (see process-tree.ts), as are the next three. */
  peakRssMb: number | null;
  peakPssMb?: number | null;
  /** Each process's peak RSS and PSS, the primary first in cluster mode. */
  byProcess?: Array<{ rssMb: number; pssMb: number | null }>;
  /** Service CPU (user + system) per request in ms over the measured run. */
  cpuMsPerRequest?: number | null;
  /** 2xx responses in the measured run. */
  succeeded?: number;
  /** Limited-coupon runs: uses sold past the coupon's limit (must be 0). */
  oversold?: number | null;
  /** The floor server's row for the same scenario and connections, measured right after. */
  floor?: Row;
  /** Set when the scenario could not run: shown instead of figures. */
  failure?: string;
  note?: string;
}

export interface LoadSpec {
  scenario: string;
  method: 'GET' | 'POST';
  /** Path for each request; called per request so a scenario can rotate ids or bodies. */
  path: () => string;
  body?: () => unknown;
  /** Sent instead of the API key's headers (the hosted checkout takes no bearer token). */
  headers?: Record<string, string>;
  /** A non-2xx response that is part of the scenario (a coupon's 422 once its uses are gone), not an error. */
  expected?: (status: number, body: string) => boolean;
  /** Runs before the first request of each connection count (the checkout's orders to pay). */
  beforeRun?: () => Promise<void>;
  /** Runs between the warm-up and the measured run (a fresh coupon for a limited run). */
  beforeMeasure?: () => Promise<void>;
  /** Runs after the measured run; what it returns is added to the row (a limited run's oversold count). */
  afterMeasure?: (row: Row) => Promise<Partial<Row>>;
}

export interface LoadSettings {
  baseUrl: string;
  headers: Record<string, string>;
  durationSeconds: number;
  warmupSeconds: number;
  servicePid: number;
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** One request outside the measurement: a route that is missing or failing becomes an error row. */
export async function preflight(settings: LoadSettings, spec: LoadSpec): Promise<string | null> {
  try {
    const body = spec.body?.();
    const res = await fetch(`${settings.baseUrl}${spec.path()}`, {
      method: spec.method,
      headers: {
        ...(spec.headers ?? settings.headers),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 200 && res.status < 300) return null;
    return `HTTP ${res.status} ${(await res.text()).slice(0, 160)}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Drives `connections` keep-alive connections for the configured duration with autocannon. */
export async function measure(settings: LoadSettings, spec: LoadSpec, connections: number): Promise<Row> {
  await spec.beforeRun?.();
  const failure = await preflight(settings, spec);
  if (failure) return errorRow(spec.scenario, connections, failure);

  let firstFailure: string | undefined;
  let succeeded = 0;
  let unexpected = 0;
  const options = (duration: number): autocannon.Options => ({
    url: settings.baseUrl,
    connections,
    duration,
    headers: spec.headers ?? settings.headers,
    requests: [
      {
        method: spec.method,
        setupRequest: (request) => {
          request.path = spec.path();
          if (spec.body) {
            request.body = JSON.stringify(spec.body());
            request.headers = { ...request.headers, 'content-type': 'application/json' };
          }
          return request;
        },
        onResponse: (status, body) => {
          if (status >= 200 && status < 300) {
            succeeded++;
            return;
          }
          if (spec.expected?.(status, String(body))) return;
          unexpected++;
          if (!firstFailure) firstFailure = `HTTP ${status} ${String(body).slice(0, 160)}`;
        },
      },
    ],
  });

  if (settings.warmupSeconds > 0) await run(options(settings.warmupSeconds));
  await spec.beforeMeasure?.();
  firstFailure = undefined;
  succeeded = 0;
  unexpected = 0;
  const sampler = new TreeMemorySampler(settings.servicePid);
  sampler.start();
  const cpuBefore = treeCpuSeconds(settings.servicePid);
  const result = await run(options(settings.durationSeconds));
  const cpuAfter = treeCpuSeconds(settings.servicePid);
  const memory = sampler.stop();
  const cpuMsPerRequest =
    cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? (1000 * (cpuAfter - cpuBefore)) / result.requests.total
      : null;
  const row: Row = {
    scenario: spec.scenario,
    connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + (spec.expected ? unexpected : result.non2xx),
    succeeded,
    ...memory,
    cpuMsPerRequest,
    note: firstFailure ? `first failure: ${firstFailure}` : undefined,
  };
  return spec.afterMeasure ? Object.assign(row, await spec.afterMeasure(row)) : row;
}

export function errorRow(scenario: string, connections: number | null, failure: string): Row {
  return {
    scenario,
    connections,
    requestsPerSecond: null,
    p50: null,
    p99: null,
    errors: null,
    peakRssMb: null,
    failure,
  };
}
