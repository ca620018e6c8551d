import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
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
  const args = [
    ...nodeArgs,
    ...(options.ts ? ['-r', 'ts-node/register/transpile-only', 'src/main.ts'] : ['dist/src/main.js']),
  ];
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
  // BENCH_SERVICE_LOG=<file> keeps all of it, appended to that file (what the service logged mid-run).
  if (process.env.BENCH_SERVICE_LOG) {
    const file = createWriteStream(process.env.BENCH_SERVICE_LOG, { flags: 'a' });
    child.stdout!.pipe(file, { end: false });
    child.stderr!.pipe(file, { end: false });
  }
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
