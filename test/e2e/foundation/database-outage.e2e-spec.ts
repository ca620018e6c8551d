import { createServer, Server, Socket, connect } from 'node:net';
import { App, createApp, ready } from '../../../src/app.factory';
import { loadConfig } from '../../../src/config/app-config';
import { DatabaseConnection } from '../../../src/database/database-connection';
import { createSeller, TestSeller } from '../../utils/auth';
import { freePort } from '../../utils/free-port';
import { createTestDatabase, TestDatabase } from '../../utils/test-database';
import { TestClock } from '../../utils/test-clock';
import { Client } from 'pg';
import request from 'supertest';

/**
 * A TCP proxy between the service and PostgreSQL that the test cuts (every connection reset, new
 * ones refused) and restores: a real outage as the service's driver sees one.
 */
class CuttableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    if (this.server) return;
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('close', end);
      upstream.on('close', end);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.resetAndDestroy();
    await closed;
  }
}

describe('PostgreSQL outage', () => {
  let database: TestDatabase;
  let app: App;
  let proxy: CuttableProxy;
  let seller: TestSeller;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('This test needs DATABASE_URL (a PostgreSQL server to cut off).');
    database = await createTestDatabase();
    const direct = new URL(database.url);
    proxy = new CuttableProxy(await freePort(), { host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.open();
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '3000',
      BASE_URL: 'http://127.0.0.1:3000',
      DATA_DIR: `/tmp/commerce-outage-${process.pid}`,
      DATABASE_URL: viaProxy.toString(),
    });
    app = await createApp(config, await DatabaseConnection.open(config), { clock: new TestClock() });
    await ready(app);
    http = request(app.getHttpServer());
    seller = await createSeller({ app });
  }, 60_000);

  afterAll(async () => {
    await proxy?.open().catch(() => undefined);
    await app?.close();
    await database?.drop();
  });

  const product = () => http.post('/v1/products').set(seller.auth).send({ name: 'Ebook', price: 100 });

  it('answers 503 with Retry-After while the database is unreachable, never 500, and recovers by itself', async () => {
    await product().expect(201);
    await http.get('/v1/user').set(seller.auth).expect(200);

    await proxy.cut();
    const during = await Promise.all([
      http.get('/v1/user').set(seller.auth),
      http.get('/v1/products').set(seller.auth),
      product(),
      http.get('/v1/orders').set(seller.auth),
      http.get('/v1/user').set('Authorization', 'Bearer sk_unknowntoken'),
      http.get('/v1/health'),
    ]);
    for (const res of during.slice(0, 5)) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 503,
        body: { status: 'error', message: 'Service temporarily unavailable.' },
      });
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
    }
    expect(during[5].status).toBe(503);
    expect(during[5].body.database).toBe('down');

    // Still cut: a second wave, on connections the pool tries to open again.
    const again = await Promise.all(Array.from({ length: 10 }, () => http.get('/v1/products').set(seller.auth)));
    expect(again.map((res) => res.status)).toEqual(Array(10).fill(503));

    await proxy.open();
    // Recovers by itself: no restart, the pool reconnects.
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await http.get('/v1/user').set(seller.auth)).status;
      if (status !== 200) {
        expect(status).toBe(503);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(status).toBe(200);
    await product().expect(201);
    await http.get('/v1/health').expect(200);
  }, 60_000);

  it('a backend terminated under the service (pg_terminate_backend) is a 503 or a success, never a 500', async () => {
    const admin = new URL(database.url);
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const statuses: number[] = [];
      for (let round = 0; round < 3; round++) {
        await client.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [admin.pathname.slice(1)],
        );
        // Reads, and writes whose transaction may lose its connection between two statements.
        const wave = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? http.get('/v1/products').set(seller.auth) : product())),
        );
        statuses.push(...wave.map((res) => res.status));
      }
      expect(statuses.filter((s) => s !== 200 && s !== 201 && s !== 503)).toEqual([]);
    } finally {
      await client.end();
    }
    await http.get('/v1/user').set(seller.auth).expect(200);
  }, 60_000);

  it('pages during an outage: the checkout and the dashboard answer a 503 page with Retry-After, not a 500', async () => {
    const productPid = (await product().expect(201)).body.product.pid;
    const order = await http
      .post('/v1/orders')
      .set(seller.auth)
      .send({
        amount: 100,
        product_pid: productPid,
        customer: { name: 'Ana', email: 'ana@example.com', mobile_number: '+258841234567' },
      })
      .expect(201);
    const agent = request.agent(app.getHttpServer());
    const login = await agent.get('/web/login').expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(login.text)![1];
    await agent
      .post('/web/login')
      .type('form')
      .send({ email: seller.email, password: seller.password, _csrf: csrf })
      .expect(303);
    await agent.get('/web/products').expect(200);

    await proxy.cut();
    try {
      for (const [page, res] of [
        ['checkout', await http.get(`/pay/token/${order.body.pay_token}`).set('Accept', 'text/html')],
        ['dashboard', await agent.get('/web/products')],
      ] as const) {
        expect({ page, status: res.status, type: res.headers['content-type'] }).toEqual({
          page,
          status: 503,
          type: expect.stringMatching(/^text\/html/),
        });
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.text).toContain('Service temporarily unavailable.');
      }
    } finally {
      await proxy.open();
    }
  }, 60_000);

  it('a database dropped under the service (3D000 on every new connection) is a 503, never a 500', async () => {
    const doomed = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '3000',
      BASE_URL: 'http://127.0.0.1:3000',
      DATA_DIR: `/tmp/commerce-outage-dropped-${process.pid}`,
      DATABASE_URL: doomed.url,
    });
    const other = await createApp(config, await DatabaseConnection.open(config), { clock: new TestClock() });
    try {
      await ready(other);
      const client = request(other.getHttpServer());
      const owner = await createSeller({ app: other });
      await client.get('/v1/products').set(owner.auth).expect(200);
      await doomed.drop();
      for (const res of [
        await client.get('/v1/products').set(owner.auth),
        await client.post('/v1/products').set(owner.auth).send({ name: 'Ebook', price: 100 }),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual({
          status: 503,
          body: { status: 'error', message: 'Service temporarily unavailable.' },
        });
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
      }
      const page = await client.get('/pay/token/anything').set('Accept', 'text/html');
      expect({ status: page.status, type: page.headers['content-type'] }).toEqual({
        status: 503,
        type: expect.stringMatching(/^text\/html/),
      });
    } finally {
      await other.close().catch(() => undefined);
      await doomed.drop();
    }
  }, 60_000);
});
