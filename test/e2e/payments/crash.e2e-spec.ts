import { freePort } from '../../utils/free-port';
import { createSeller } from '../../utils/auth';
import { ServiceProcess, spawnService, waitForHealthy } from '../../utils/service-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody } from '../billing/fixtures';
import { waitUntil } from '../webhooks/helpers';
import { FakeMpesa } from './fakes/mpesa-fake';

jest.setTimeout(180_000);

/**
 * The service dies between claiming an attempt and the gateway's answer (the
 * customer confirmed, M-Pesa took the money, nobody heard it). After a restart, reconciliation asks
 * M-Pesa by the third-party reference and approves the order, once.
 */
describe('a crash between claim and answer', () => {
  let t: TestApp;
  let fake: FakeMpesa;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    // Creates the seller and orders and reads the database. It works no queue: the reconciliation
    // ticks the restarted service sends are that service's to work (this app has no M-Pesa
    // gateway, and a tick it took would look at the attempt without one).
    t = await createTestApp({ env: { PAYMENT_RECONCILE_SECONDS: '3600', WEBHOOK_WORKER: 'false' } });
    fake = await new FakeMpesa().start();
  });
  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    await t?.close();
    await fake?.stop();
  });

  it('reconciles the processing attempt after restart: approved with one order_approved', async () => {
    const port = await freePort();
    const env = {
      ...fake.env(),
      DATABASE_URL: t.config.database.url!,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: `/tmp/commerce-test-${process.pid}`,
      PAYMENT_SANDBOX: 'false',
      PAYMENT_RECONCILE_SECONDS: '1',
    };
    const seller = await createSeller(t);
    const product = await insertProduct(t, seller.storeId);
    const created = await createOrder(t, seller, orderBody(product.pid, { amount: 150 }));
    // A subscribed webhook, so the approval's event leaves an outbox row to count.
    await t.http
      .post('/v1/webhooks')
      .set(seller.auth)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['order_approved'] })
      .expect(201);
    fake.on('841000777', { kind: 'silent', finalStatus: 'Completed' });

    const first = spawnService({ ...env, MPESA_TIMEOUT_MS: '120000' });
    services.push(first);
    await waitForHealthy(first);
    const paying = fetch(`${first.url}/pay/token/${created.pay_token}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ payment_method: 'mpesa', payment_number: '841000777' }),
    }).catch((error: unknown) => error);
    await waitUntil(
      () => fake.transactionOf(created.order_number) !== undefined,
      20_000,
      () => 'the C2B request',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    // The customer's request died with the process: no answer was ever given.
    expect(String(await paying)).toMatch(/fetch failed/);

    const attempts = async () =>
      (await t.dataSource.query(
        `SELECT a.status, a.transaction_id FROM payment_attempts a JOIN orders o ON o.id = a.order_id WHERE o.order_number = $1`,
        [created.order_number],
      )) as Array<{ status: string; transaction_id: string | null }>;
    expect(await attempts()).toEqual([{ status: 'processing', transaction_id: null }]);

    // After the restart the attempt is past its limit (here 1 s + 10 s) and gets looked up.
    const second = spawnService({ ...env, MPESA_TIMEOUT_MS: '1000' });
    services.push(second);
    await waitForHealthy(second);
    await waitUntil(
      async () => (await attempts())[0].status === 'succeeded',
      // The restarted service's reconciliation tick, on a machine busy with the whole suite.
      120_000,
      () => 'the attempt reconciled',
    );

    const order = (await t.http.get(`/v1/orders/${created.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(order.status).toBe('approved');
    expect(order.payments).toEqual([expect.objectContaining({ provider: 'mpesa', status: 'succeeded' })]);
    const [{ count }] = await t.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_deliveries d WHERE d.payload->>'order_number' = $1 AND d.payload->>'order_type' = 'order_approved'`,
      [created.order_number],
    );
    expect(count).toBe(1);
    // Only one C2B was ever sent for it; the rest were queries.
    expect(fake.c2bRequests().filter((r) => r.fields.input_TransactionReference === created.order_number)).toHaveLength(
      1,
    );
  });
});
