import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createSeller } from '../../utils/auth';
import { TEST_DATA_DIR } from '../../utils/run-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertProduct, Receiver, startReceiver, waitUntil } from './helpers';

const ROOT = join(__dirname, '..', '..', '..');

function run(script: string, env: Record<string, string>) {
  let out = '';
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script], {
    cwd: ROOT,
    // The test app's DATA_DIR: one delivery secret for the database (README, `DELIVERY_SECRET`).
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: TEST_DATA_DIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => out, exited };
}

describe('A crash right after the order changes commit', () => {
  let t: TestApp;
  let r: Receiver;

  beforeAll(async () => {
    // This instance only serves the API: the processes below do the recording and the sending.
    t = await createTestApp({ env: { WEBHOOK_WORKER: 'false' } });
    r = await startReceiver();
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  it('loses nothing: after SIGKILL, `npm run start:worker` delivers every committed event once', async () => {
    const seller = await createSeller(t);
    const product = await insertProduct(t.dataSource, seller.storeId);
    const hook = (
      await t.http
        .post('/v1/webhooks')
        .set(seller.auth)
        .send({ url: r.url, events: ['order_approved'] })
        .expect(201)
    ).body.webhook;
    const env = {
      DATABASE_URL: t.config.database.url!,
      STORE_ID: String(seller.storeId),
      PRODUCT: JSON.stringify(product),
      COUNT: '12',
    };

    const service = run('test/e2e/webhooks/emitter-process.ts', { ...env, WEBHOOK_WORKER: 'false' });
    await waitUntil(
      () => service.output().includes('committed') || service.child.exitCode !== null,
      45_000,
      service.output,
    );
    service.child.kill('SIGKILL');
    await service.exited;
    const committed = JSON.parse(/committed (.*)\n/.exec(service.output())![1]) as string[];
    expect(committed).toHaveLength(12);
    expect(r.requests).toHaveLength(0);

    const worker = run('src/worker.ts', { DATABASE_URL: t.config.database.url! });
    try {
      await r.waitFor(12, 45_000);
      await new Promise((res) => setTimeout(res, 2000));
      expect(r.requests.map((q) => JSON.parse(q.body).order_number).sort()).toEqual([...committed].sort());
      const summary = (await t.http.get(`/v1/webhooks/${hook.id}`).set(seller.auth).expect(200)).body.webhook.summary;
      expect(summary.last_delivery_status).toBe('success');
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    // SIGTERM stops pg-boss and the pool cleanly: nothing on stderr.
    expect(worker.output()).not.toMatch(/error|failed/i);
  }, 120_000);
});
