import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../utils/free-port';
import { ROOT, runProcess } from '../../utils/run-process';
import { ServiceProcess, spawnService, waitForHealthy } from '../../utils/service-process';
import { waitUntil } from '../webhooks/helpers';

jest.setTimeout(300_000);

/** The commands of the README's quick start, as a reader copies them. */
function quickStartCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1];
  return block.split('\n').filter((line) => line.trim() !== '');
}

const run = (command: string, env: Record<string, string>) => runProcess('bash', ['-c', command], env);

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('README quick start, command by command, on a fresh DATA_DIR', () => {
  const commands = quickStartCommands();
  let dataDir: string;
  let port: number;
  let receiverPort: number;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;
  let receiver: ChildProcess | undefined;
  let received = '';
  /** The README's text with this run's ports and the values earlier steps printed. */
  const values: Record<string, string> = {};
  const fill = (command: string) =>
    Object.entries(values).reduce(
      (text, [name, value]) => text.split(`<${name}>`).join(value),
      command
        .replaceAll('localhost:3000', `localhost:${port}`)
        .replaceAll('localhost:4000', `localhost:${receiverPort}`)
        .replace('listen(4000)', `listen(${receiverPort})`),
    );

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'commerce-quick-start-'));
    port = await freePort();
    receiverPort = await freePort();
    // What `npm start` reads, minus NODE_ENV=test's silence; no DATABASE_URL: the embedded database.
    env = { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' };
  });

  afterAll(async () => {
    // The receiver runs in its own process group (bash and node): end both.
    if (receiver?.pid && receiver.exitCode === null) process.kill(-receiver.pid, 'SIGTERM');
    await service?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has five commands', () => {
    expect(commands).toHaveLength(5);
  });

  it('1. npm start: the service comes up and says where everything is', async () => {
    expect(commands[0]).toBe('npm start');
    // What `npm start` runs after its build: src/main.ts (here through ts-node, without the build).
    service = spawnService({ ...env, LOG_LEVEL: 'info' });
    await waitForHealthy(service);
    await waitUntil(
      () => service!.output().includes('Commerce API is ready'),
      30_000,
      () => service!.output(),
    );
    const line = JSON.parse(
      service
        .output()
        .split('\n')
        .find((l) => l.includes('Commerce API is ready'))!,
    );
    expect(line.startup).toEqual({
      api: `http://localhost:${port}/v1`,
      docs: `http://localhost:${port}/docs`,
      dashboard: `http://localhost:${port}/web/`,
      checkout: `http://localhost:${port}/pay/token/<pay_token>`,
      database: `embedded PostgreSQL in ${join(dataDir, 'pg')}`,
      gateways: ['sandbox (mpesa, emola)'],
    });
    // Route mappings are debug lines now, not 100 lines of start-up noise.
    expect(service.output()).not.toContain('Mapped {');
  });

  it('2. the receiver listens', async () => {
    receiver = spawn('bash', ['-c', fill(commands[1])], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    receiver.stdout!.on('data', (c: Buffer) => (received += c.toString()));
    await waitUntil(
      () => listening(receiverPort),
      15_000,
      () => `receiver on ${receiverPort}`,
    );
  });

  it('3. seed:demo prints the key and the next commands filled in', async () => {
    const seed = await run(fill(commands[2]), env);
    expect(seed.stderr).toBe('');
    expect(seed.code).toBe(0);
    values.api_key = /API key\s+(sk_\w+)/.exec(seed.stdout)![1];
    values.product_pid = /Products\s+(\S+)/.exec(seed.stdout)![1];
    expect(seed.stdout).toContain(`Webhook     http://localhost:${receiverPort}/hook`);
    // The README's next commands are the ones seed:demo prints, values filled in.
    expect(seed.stdout).toContain(fill(commands[3]));
    expect(seed.stdout).toContain(fill(commands[4]));
  });

  it("3b. seed:demo run without the server's PORT still prints links to that server", async () => {
    const { PORT: _port, ...withoutPort } = env;
    const seed = await run('npm run seed:demo', { ...withoutPort, PORT: '', BASE_URL: '' });
    expect(seed.code).toBe(0);
    expect(seed.stdout).toContain(`http://localhost:${port}/`);
    expect(seed.stdout).not.toContain('http://localhost:3000/');
  });

  it('4. creates an order', async () => {
    const order = await run(fill(commands[3]), env);
    expect(order.code).toBe(0);
    const body = JSON.parse(order.stdout);
    expect(body).toMatchObject({
      status: 'success',
      checkout_url: expect.stringContaining(`/pay/token/${body.pay_token}`),
    });
    values.pay_token = body.pay_token;
    values.order_number = body.order_number;
  });

  it('5. pays it, and the receiver prints the signed order_approved webhook', async () => {
    const paid = await run(fill(commands[4]), env);
    expect(paid.code).toBe(0);
    expect(JSON.parse(paid.stdout)).toEqual({
      status: 'success',
      order_number: values.order_number,
      order_status: 'approved',
    });
    await waitUntil(
      () => received.includes(values.order_number),
      30_000,
      () => `webhook for ${values.order_number}: ${received}`,
    );
    const payload = JSON.parse(received.split('\n').find((l) => l.includes(values.order_number))!);
    expect(payload).toMatchObject({
      order_type: 'order_approved',
      status: 'approved',
      product: { pid: values.product_pid },
    });
  });

  it('seed:demo on another DATA_DIR refuses in one line while this server runs, and writes nothing', async () => {
    const other = mkdtempSync(join(tmpdir(), 'commerce-other-'));
    try {
      const seed = await run('npm run --silent seed:demo', { ...env, DATA_DIR: other });
      expect(seed.code).toBe(1);
      expect(seed.stdout).toBe('');
      expect(seed.stderr.split('\n')).toHaveLength(1);
      expect(seed.stderr).toBe(
        `Error: The server at http://localhost:${port} does not run on DATA_DIR=${other} (no pg.server.json there): ` +
          "run this command with that server's DATA_DIR (or DATABASE_URL), or stop the server first.",
      );
      expect(existsSync(join(other, 'pg'))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
