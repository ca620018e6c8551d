import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect, Socket } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { checkoutOf, customerBody, freePort, httpTo, sellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { childPids, environOf, isRunning, pidsWithConnectionsOn } from '../../utils/process-tree';
import { ServiceProcess, spawnService, waitForHealthy } from '../../utils/service-process';
import { createTestDatabase, TestDatabase } from '../../utils/test-database';
import { signUp } from '../identity/support/web';
import { createInstanceOn, Receiver, startReceiver, waitUntil } from '../webhooks/helpers';

jest.setTimeout(180_000);

/** `GET /v1/health` on a connection of its own, so a worker that died cannot hold it. */
function healthOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}/v1/health`, { agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    }).once('error', reject);
  });
}

/** `count` keep-alive connections, each answered once and left open (one after another: round robin spreads them). */
async function servedConnections(port: number, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    sockets.push(
      await new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
        );
        let head = '';
        socket.on('data', (chunk: Buffer) => {
          head += chunk.toString();
          if (!head.includes('\r\n\r\n')) return;
          if (head.startsWith('HTTP/1.1 200')) resolve(socket);
          else reject(new Error(head));
        });
        socket.once('error', reject);
      }),
    );
  }
  return sockets;
}

/** The worker that runs the webhook pollers is the one not told WEBHOOK_WORKER=false. */
const pollerOf = (workers: number[]) => workers.filter((pid) => environOf(pid).WEBHOOK_WORKER !== 'false');

describe('cluster mode (WEB_CONCURRENCY)', () => {
  it('refuses more than one process on the embedded database, with one line naming the variable', async () => {
    const service = spawnService({ WEB_CONCURRENCY: '2', PORT: String(await freePort()) });
    expect(await service.exited).toBe(1);
    const lines = service.output().trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^Invalid configuration: WEB_CONCURRENCY="2" requires DATABASE_URL/)]);
  });

  it.each(['0', '-1', '1.5', 'many'])('stops at start-up on WEB_CONCURRENCY=%s', async (value) => {
    const service = spawnService({ WEB_CONCURRENCY: value, DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toBe(
      `Invalid configuration: WEB_CONCURRENCY=${JSON.stringify(value)} must be a positive integer or auto`,
    );
  });

  it('stops on any other bad setting with the one line of its first worker', async () => {
    const service = spawnService({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://127.0.0.1:1/none', PORT: '70000' });
    expect(await service.exited).toBe(1);
    expect(service.output().trim().split('\n')).toEqual([
      expect.stringMatching(/^Invalid configuration: PORT="70000"/),
    ]);
  });

  describe('with two workers on an external database', () => {
    let database: TestDatabase;
    let service: ServiceProcess;
    let port: number;
    let seller: TestSeller;
    let instance: Awaited<ReturnType<typeof createInstanceOn>>;
    let receiver: Receiver;
    const open: Socket[] = [];

    const workers = () => childPids(service.child.pid!);
    /** Opens served connections until `pid` holds one: a worker takes connections once it listens. */
    const untilServing = (pid: number) =>
      waitUntil(
        async () => {
          open.push(...(await servedConnections(port, 2)));
          return pidsWithConnectionsOn([pid], port).has(pid);
        },
        120_000,
        () => `a connection served by worker ${pid}: ${service.output()}`,
      );
    /** An order paid through the cluster: its order_approved delivery comes from the cluster's poller. */
    const approveOne = async (email: string) => {
      const api = sellerApi(httpTo(service.url), seller.auth);
      const product = await api.product({ name: `Ebook ${email}`, price: 50 });
      const session = await api.order({ amount: 50, product_pid: product.pid, customer: customerBody(email) });
      expect(await checkoutOf(httpTo(service.url), session).pay({ payment_number: '841234567' })).toBe('approved');
      return session.order_number;
    };

    beforeAll(async () => {
      // A fresh database: the first worker migrates it before the second one starts.
      database = await createTestDatabase();
      port = await freePort();
      service = spawnService({
        WEB_CONCURRENCY: '2',
        DATABASE_URL: database.url,
        PORT: String(port),
        BASE_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: `/tmp/commerce-test-${process.pid}`,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      await waitForHealthy(service);
      await waitUntil(
        () => workers().length === 2,
        120_000,
        () => `two workers (have ${workers().join(', ')}): ${service.output()}`,
      );
      // For the seller and its key only: no pollers here, so every delivery comes from the cluster.
      instance = await createInstanceOn(database.url, { WEBHOOK_WORKER: 'false' });
      seller = await createSeller(instance);
      receiver = await startReceiver();
      await sellerApi(httpTo(service.url), seller.auth).webhook({ url: receiver.url, events: ['order_approved'] });
    });

    afterAll(async () => {
      for (const socket of open) socket.destroy();
      if (service && service.child.exitCode === null) await service.stop('SIGKILL');
      await receiver?.close();
      await instance?.close();
      await database?.drop();
    });

    it('runs the migrations once and serves from both workers, one of which delivers webhooks', async () => {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT name FROM migrations GROUP BY name HAVING count(*) > 1`);
        expect(rows).toEqual([]);
      } finally {
        await client.end();
      }

      const pids = workers();
      expect(pids).toHaveLength(2);
      for (const pid of pids) await untilServing(pid);
      expect(pidsWithConnectionsOn(pids, port)).toEqual(new Set(pids));

      expect(pollerOf(pids)).toHaveLength(1);
      // Smaller young generations keep two workers and the primary under the memory target.
      for (const pid of pids)
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=2');
      const orderNumber = await approveOne('first@example.com');
      const [delivery] = await receiver.waitFor(1, 15_000);
      expect(JSON.parse(delivery.body)).toMatchObject({ order_type: 'order_approved', order_number: orderNumber });
    });

    it('shares the per-boot session secret: a dashboard session holds on every worker', async () => {
      // A connection per request, so round robin sends them to both workers in turn.
      const browser = request.agent(service.url).set('Connection', 'close');
      await signUp(browser);
      for (let i = 0; i < 4; i++) await browser.get('/web/settings/api').expect(200);
    });

    it('replaces a killed worker, keeps answering meanwhile, and the replacement takes over the webhook pollers', async () => {
      const before = workers();
      const [poller] = pollerOf(before);
      const survivor = before.find((pid) => pid !== poller)!;
      process.kill(poller, 'SIGKILL');
      await waitUntil(() => !isRunning(poller), 5_000);

      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push(await healthOnNewConnection(service.url));
      expect(statuses.every((s) => s === 200)).toBe(true);

      await waitUntil(
        () => workers().length === 2 && !workers().includes(poller),
        60_000,
        () => `a replacement (have ${workers().join(', ')})`,
      );
      const after = workers();
      const replacement = after.find((pid) => pid !== survivor)!;
      expect(after).toContain(survivor);
      expect(pollerOf(after)).toEqual([replacement]);
      expect(service.output()).toContain(`Worker ${poller} exited (signal SIGKILL); starting a replacement`);

      await untilServing(replacement);

      const orderNumber = await approveOne('second@example.com');
      await receiver.waitFor(2, 15_000);
      expect(JSON.parse(receiver.requests[1].body)).toMatchObject({
        order_type: 'order_approved',
        order_number: orderNumber,
      });
    });

    it('stops on SIGTERM: a request in flight is answered, every worker ends, the primary exits 0', async () => {
      for (const socket of open.splice(0)) socket.destroy();
      const pids = workers();
      const product = await sellerApi(httpTo(service.url), seller.auth).product({ name: 'Last ebook', price: 10 });
      // Headers and half the body before the signal: the worker is inside this request when it stops.
      const held = await heldRequest(port, seller.auth.Authorization, {
        amount: 10,
        product_pid: product.pid,
        customer: customerBody('last@example.com'),
      });
      await waitUntil(
        () => pidsWithConnectionsOn(pids, port).size === 1,
        10_000,
        () => 'the held connection in a worker',
      );
      await new Promise((r) => setTimeout(r, 300));
      process.kill(service.child.pid!, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      expect(service.child.exitCode).toBeNull();
      held.finish();
      expect(await held.status).toBe(201);
      expect(await service.exited).toBe(0);
      for (const pid of pids) expect(isRunning(pid)).toBe(false);
      expect(service.output()).not.toMatch(/killed|Start-up failed/);
    });
  });
});

/** A POST whose body is sent in two parts: the second when `finish` is called. */
async function heldRequest(
  port: number,
  authorization: string,
  body: unknown,
): Promise<{ finish(): void; status: Promise<number> }> {
  const payload = Buffer.from(JSON.stringify(body));
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s)).once('error', reject);
  });
  const status = new Promise<number>((resolve, reject) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString();
      const line = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (line) resolve(Number(line[1]));
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed after: ${head}`)));
  });
  socket.write(
    `POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`,
  );
  socket.write(payload.subarray(0, 10));
  return {
    // write, not end: a client's half-close aborts its request on a Node server.
    finish: () => socket.write(payload.subarray(10)),
    status: status.finally(() => socket.destroy()),
  };
}
