import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Connections in the pool of each app a test builds (test-app.ts) and each service it spawns. Two
 * test files run at once, each with an app or two and their job and session pools: at the
 * production default of 20 they can take all of PostgreSQL's 100 slots (53300 "too many clients").
 */
export const TEST_POOL_SIZE = '8';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs `src/main.ts` as a real process (transpile-only), as `npm start` would. */
export function spawnService(env: Record<string, string>): ServiceProcess {
  let out = '';
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DATABASE_POOL_SIZE: TEST_POOL_SIZE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    url: `http://127.0.0.1:${env.PORT ?? 3000}`,
    output: () => out,
    exited,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls `url` until it answers 200, or fails after `timeoutMs`. */
export async function waitForHealthy(service: ServiceProcess, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`service exited: ${service.output()}`);
    try {
      const res = await fetch(`${service.url}/v1/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`service not healthy in ${timeoutMs} ms: ${service.output()}`);
}
