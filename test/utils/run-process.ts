import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The DATA_DIR of this Jest worker's test apps (test-app.ts), and of the CLI run beside them. */
export const TEST_DATA_DIR = `/tmp/commerce-test-${process.pid}`;

/** The repository's root: where `npm run …` and `src/…` resolve. */
export const ROOT = join(__dirname, '..', '..');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  /** Without blank lines and npm's own `npm warn …` lines (about the machine's npm config, not the command). */
  stderr: string;
  /** stdout parsed as JSON; undefined when it is not JSON. */
  json: any;
}

/** Runs `command args…` in the repository's root to its exit, with `env` over this process's environment. */
export function runProcess(command: string, args: string[], env: Record<string, string>): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) =>
      resolve({
        code,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((l) => l && !l.startsWith('npm warn'))
          .join('\n'),
        json: parsedJson(stdout),
      }),
    );
  });
}

/** `npm run cli -- args…`, as an operator runs it. */
export function runCli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  // The test app's DATA_DIR unless told otherwise: the CLI runs on its server's configuration, its
  // delivery secret included (README, `DELIVERY_SECRET`).
  return runProcess('npm', ['run', '--silent', 'cli', '--', ...args], {
    NODE_ENV: 'test',
    DATA_DIR: TEST_DATA_DIR,
    ...env,
  });
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
