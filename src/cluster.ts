import cluster, { Worker } from 'node:cluster';
import { hostname } from 'node:os';
import type { PrimaryConfig } from './config/primary-config';

/**
 * The cluster primary of `WEB_CONCURRENCY` > 1: forks the HTTP workers, which share the port
 * through node:cluster, replaces a worker that dies, and stops them all on SIGTERM/SIGINT. It
 * loads nothing of the application, not even zod for the configuration (primary-config.ts): each
 * worker runs main.ts again, validates the configuration and serves (server.ts), and the
 * primary's memory is counted once more beside theirs.
 */

/** A replacement waits this long after a first crash, doubling on each crash in a row. */
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran this long before it died starts its slot's back-off afresh. */
const STABLE_AFTER_MS = 30_000;
/** Beyond the webhook pollers' 15 s grace and a delivery's 10 s timeout, then SIGKILL. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * Node settings of every worker, placed before the primary's own command line, which wins. Young
 * generation semi-spaces of at most 2 MB instead of 16, and one V8 background thread instead of
 * four (the other workers use the other cores), keep a worker near 120 MB of RSS under load
 * instead of 155, so that two workers and the primary stay under the 300 MB target. The smaller
 * young generation costs about 15 % more CPU per request (docs/performance.md, Cluster mode). The
 * heap limit of NODE_OPTIONS (--max-old-space-size) applies to each worker as to one process.
 */
const WORKER_NODE_FLAGS = ['--max-semi-space-size=2', '--v8-pool-size=1'];

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** pino's line shape (level, time, pid, hostname, msg) without loading pino into the primary. */
function primaryLog(config: PrimaryConfig): Log {
  const threshold = LEVELS[config.logLevel] ?? Infinity;
  const host = hostname();
  return (level, msg) => {
    if (LEVELS[level] < threshold) return;
    process.stdout.write(
      `${JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, hostname: host, context: 'Cluster', msg })}\n`,
    );
  };
}

interface Slot {
  index: number;
  worker?: Worker;
  startedAt: number;
  /** Deaths in a row, each within STABLE_AFTER_MS of its start. */
  crashes: number;
  restart?: NodeJS.Timeout;
}

export function runPrimary(config: PrimaryConfig): void {
  const log = primaryLog(config);
  const slots: Slot[] = Array.from({ length: config.workers }, (_, index) => ({ index, startedAt: 0, crashes: 0 }));
  let serving = false;
  let stopping = false;

  const fork = (slot: Slot) => {
    slot.restart = undefined;
    // One worker runs the webhook pollers (when WEBHOOK_WORKER allows it at all); a replacement of
    // that worker takes them over. The others serve HTTP only, as with WEBHOOK_WORKER=false.
    const worker = cluster.fork({ ...config.sharedEnv, ...(slot.index === 0 ? {} : { WEBHOOK_WORKER: 'false' }) });
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.once('listening', () => {
      if (serving) return;
      // The first worker has run the migrations; the others start on a migrated schema.
      serving = true;
      for (const other of slots) if (!other.worker) fork(other);
      log('info', `Cluster of ${slots.length} workers serving`);
    });
    worker.once('exit', (code, signal) => onExit(slot, worker, code, signal));
  };

  const onExit = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    if (slot.worker === worker) slot.worker = undefined;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      // 0, or 1 when the stop timeout had to kill.
      if (slots.every((s) => !s.worker)) process.exit();
      return;
    }
    if (!serving) {
      // As a single process would: a bad setting or a start-up failure (database unreachable,
      // migration error) ends the service instead of retrying it forever. The worker has said why.
      if (signal) log('error', `Worker ${worker.process.pid} exited during start-up (${how})`);
      process.exit(code || 1);
    }
    slot.crashes = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.crashes + 1;
    const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.crashes - 1));
    log('error', `Worker ${worker.process.pid} exited (${how}); starting a replacement in ${delay} ms`);
    slot.restart = setTimeout(() => fork(slot), delay);
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log('info', `${signal}: stopping ${slots.filter((s) => s.worker).length} workers`);
    for (const slot of slots) clearTimeout(slot.restart);
    const running = slots.flatMap((s) => (s.worker ? [s.worker] : []));
    if (!running.length) process.exit();
    // Each worker's Nest shutdown hooks let in-flight requests and deliveries finish. Nest ignores a
    // second signal while it shuts down, so a terminal's SIGINT to the whole group does no harm.
    for (const worker of running) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of running) if (!worker.isDead()) worker.process.kill('SIGKILL');
      log('error', `Workers still running after ${STOP_TIMEOUT_MS} ms were killed`);
      process.exitCode = 1;
    }, STOP_TIMEOUT_MS).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  cluster.setupPrimary({ execArgv: [...WORKER_NODE_FLAGS, ...process.execArgv] });
  fork(slots[0]);
}
