import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';

export const ROOT = `${__dirname}/../..`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Service {
  child: ChildProcess;
  pid: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** The service as a real process: `node dist/src/main.js`, or `src/main.ts` through ts-node. */
export function startService(options: { ts: boolean; env: Record<string, string> }): Service {
  // BENCH_SERVICE_NODE_ARGS reaches the service only (not the load generator): `--prof` or
  // `--heapsnapshot-signal=SIGUSR2` to see where a scenario spends its time or memory.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...nodeArgs, ...(options.ts ? ['-r', 'ts-node/register/transpile-only', 'src/main.ts'] : ['dist/src/main.js'])];
  let out = '';
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep only the tail: a long run at warn level can still print a lot.
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid!,
    url: `http://127.0.0.1:${options.env.PORT}`,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitHealthy(service: Service, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`service exited during start-up:\n${service.output()}`);
    try {
      if ((await fetch(`${service.url}/v1/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`service not healthy after ${timeoutMs} ms:\n${service.output()}`);
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Peak resident memory of a process during one scenario. The kernel's high-water mark (VmHWM) is
 * reset at the start by writing 5 to clear_refs, so it covers this scenario only; RSS is also
 * polled every 50 ms, for kernels or containers where the reset is not allowed.
 */
export class RssSampler {
  private timer?: NodeJS.Timeout;
  private polledMaxKb = 0;
  private hwmReset = false;

  constructor(private readonly pid: number) {}

  start(): void {
    this.polledMaxKb = statusKb(this.pid, 'VmRSS') ?? 0;
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      this.hwmReset = true;
    } catch {
      this.hwmReset = false;
    }
    this.timer = setInterval(() => {
      this.polledMaxKb = Math.max(this.polledMaxKb, statusKb(this.pid, 'VmRSS') ?? 0);
    }, 50);
    this.timer.unref();
  }

  /** Peak in MB. */
  stop(): number | null {
    clearInterval(this.timer);
    const hwm = this.hwmReset ? statusKb(this.pid, 'VmHWM') ?? 0 : 0;
    const peak = Math.max(this.polledMaxKb, hwm);
    return peak ? peak / 1024 : null;
  }
}

/**
 * CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat; null where
 * /proc is not readable. Per request it is the service's own cost, which another load on the
 * machine inflates far less than it cuts requests per second.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat; clock ticks are 100 a second on Linux.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
