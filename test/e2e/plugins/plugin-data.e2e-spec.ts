import { Injectable, Module } from '@nestjs/common';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { BlockedEmailDomain } from '../../../examples/blocked-domains/blocked-domain.entity';
import { BLOCKED_DOMAIN_MESSAGE } from '../../../examples/blocked-domains/blocked-domain.rule';
import { BlockedDomainsPlugin } from '../../../examples/blocked-domains/blocked-domains.plugin';
import { MemoryFileStorage } from '../../../examples/memory-storage/memory-storage.plugin';
import { loadConfig } from '../../../src/config/app-config';
import { dataSourceOptions } from '../../../src/database/data-source-options';
import { NotificationChannels } from '../../../src/modules/notifications/channels/notification-channel';
import { FILE_STORAGE } from '../../../src/modules/catalog/files/storage/file-storage';
import { WebhookEventKinds } from '../../../src/modules/webhooks/event-kinds/webhook-event-kinds';
import {
  type AppConfig,
  APP_CONFIG,
  type ChannelResult,
  type CheckoutCandidate,
  type CheckoutRule,
  definePlugin,
  type DomainEvent,
  type EventListenerDefinition,
  type FileStorage,
  type GatewayOutcome,
  type NotificationChannel,
  type PaymentGateway,
  PaymentGatewayRegistry,
  type RefundOutcome,
  runMigrations,
  type StorageDriver,
  Transactions,
  ValidationError,
  type WebhookEventKind,
} from '../../../src/plugins';
import { customerBody, sellerApi } from '../../factories/api';
import { createSeller, TestSeller } from '../../utils/auth';
import { runProcess } from '../../utils/run-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createTestDatabase } from '../../utils/test-database';

const PLUGIN_MIGRATION = 'BlockedEmailDomains1795705157966';

/**
 * A plugin's own data (examples/blocked-domains, outside src/): its table comes from its migration,
 * run with core's by the app, by `runMigrations` (PostgreSQL and embedded PGlite) and by the CLI; its
 * checkout rule refuses orders; and every kind of extension is injected with the plugin's providers.
 */
describe('a plugin that keeps data and adds a checkout rule', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ plugins: [BlockedDomainsPlugin.register()] });
    seller = await createSeller(t);
    other = await createSeller(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const count = async (table: string, storeId: number) =>
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE store_id = $1`, [storeId]))[0].n as number;

  describe('its table', () => {
    it("is created by the plugin's migration, recorded beside core's", async () => {
      const names = (await t.dataSource.query(`SELECT name FROM migrations ORDER BY id`)).map(
        (r: { name: string }) => r.name,
      );
      expect(names).toContain(PLUGIN_MIGRATION);
      expect(names.indexOf(PLUGIN_MIGRATION)).toBeGreaterThan(names.indexOf('Identity1795366229444'));
      const columns = await t.dataSource.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'blocked_email_domains' ORDER BY column_name`,
      );
      expect(columns.map((c: { column_name: string }) => c.column_name)).toEqual([
        'created_at',
        'domain',
        'id',
        'store_id',
      ]);
      // The entity is the app's: a repository of it works through the app's DataSource.
      expect(await t.app.get(DataSource).getRepository(BlockedEmailDomain).count()).toBe(0);
    });

    it('is filled through the plugin routes, one list per store, replaced in one piece', async () => {
      const put = await t.http
        .put('/v1/blocked-domains')
        .set(seller.auth)
        .send({ domains: ['Spam.Example', '@throwaway.example', 'spam.example'] })
        .expect(200);
      expect(put.body).toEqual({ status: 'success', domains: ['spam.example', 'throwaway.example'] });
      expect((await t.http.get('/v1/blocked-domains').set(seller.auth).expect(200)).body).toEqual({
        status: 'success',
        domains: ['spam.example', 'throwaway.example'],
      });
      // Another store sees its own (empty) list.
      expect((await t.http.get('/v1/blocked-domains').set(other.auth).expect(200)).body.domains).toEqual([]);

      await t.http
        .put('/v1/blocked-domains')
        .set(seller.auth)
        .send({ domains: ['spam.example'] })
        .expect(200);
      expect(await count('blocked_email_domains', seller.storeId)).toBe(1);
    });

    it('refuses a list that is not domain names, changing nothing', async () => {
      const res = await t.http
        .put('/v1/blocked-domains')
        .set(seller.auth)
        .send({ domains: ['spam.example', 'not a domain'] })
        .expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { domains: ['domains must be domain names (example.com).'] },
      });
      await t.http.put('/v1/blocked-domains').set(seller.auth).send({ domains: 'spam.example' }).expect(422);
      expect((await t.http.get('/v1/blocked-domains').set(seller.auth).expect(200)).body.domains).toEqual([
        'spam.example',
      ]);
    });

    it("guards the routes with the plugin's scopes", async () => {
      await t.http.get('/v1/blocked-domains').expect(401);
      await t.http.put('/v1/blocked-domains').send({ domains: [] }).expect(401);
      const readOnly = { Authorization: `Bearer ${await seller.tokenWith(['blocked_domains.read'])}` };
      await t.http.get('/v1/blocked-domains').set(readOnly).expect(200);
      const res = await t.http.put('/v1/blocked-domains').set(readOnly).send({ domains: [] }).expect(403);
      expect(res.body.status).toBe('error');
      const other = { Authorization: `Bearer ${await seller.tokenWith(['orders.read'])}` };
      await t.http.get('/v1/blocked-domains').set(other).expect(403);
    });
  });

  describe('its checkout rule', () => {
    it('refuses an order from a blocked domain with 422 on customer.email, writing nothing', async () => {
      const api = sellerApi(t.http, seller.auth);
      const product = await api.product({ name: 'Ebook', price: 100 });
      const [orders, customers] = [await count('orders', seller.storeId), await count('customers', seller.storeId)];
      const res = await t.http
        .post('/v1/orders')
        .set(seller.auth)
        .send({ amount: 100, product_pid: product.pid, customer: customerBody('ana@SPAM.example') })
        .expect(422);
      expect(res.body).toEqual({
        status: 'error',
        message: 'Validation failed.',
        errors: { 'customer.email': [BLOCKED_DOMAIN_MESSAGE] },
      });
      expect(await count('orders', seller.storeId)).toBe(orders);
      expect(await count('customers', seller.storeId)).toBe(customers);

      // Other domains, and the same domain at a store that did not block it, are taken.
      await api.order({ amount: 100, product_pid: product.pid, customer: customerBody('ana@example.com') });
      const elsewhere = sellerApi(t.http, other.auth);
      const theirs = await elsewhere.product({ name: 'Course', price: 50 });
      await elsewhere.order({ amount: 50, product_pid: theirs.pid, customer: customerBody('ana@spam.example') });
    });
  });

  describe('its migration outside the app', () => {
    it("runs with core's through runMigrations on PostgreSQL, once", async () => {
      const database = await createTestDatabase();
      try {
        const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url });
        const applied = await runMigrations(config, [BlockedDomainsPlugin.register()]);
        expect(applied).toContain(PLUGIN_MIGRATION);
        expect(applied).toContain('Identity1795366229444');
        expect(await runMigrations(config, [BlockedDomainsPlugin.register()])).toEqual([]);
      } finally {
        await database.drop();
      }
    });

    it("runs with core's on the embedded PGlite database of DATA_DIR, in a deployment's migration runner", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'plugin-data-'));
      try {
        const run = () =>
          runProcess(
            process.execPath,
            ['-r', 'ts-node/register/transpile-only', 'test/e2e/plugins/migrate-with-plugins.ts'],
            { NODE_ENV: 'test', DATABASE_URL: '', DATA_DIR: dataDir },
          );
        const result = await run();
        expect(result.stderr).toBe('');
        expect(result.json).toContain(PLUGIN_MIGRATION);
        expect(result.json).toContain('Identity1795366229444');
        expect(existsSync(join(dataDir, 'pg'))).toBe(true);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 180_000);

    it("runs with core's through the CLI of a deployment with the plugin", async () => {
      const database = await createTestDatabase();
      try {
        const env = {
          NODE_ENV: 'test',
          DATABASE_URL: database.url,
          DATA_DIR: t.config.dataDir,
          BASE_URL: t.config.urls.base,
        };
        const cli = (...args: string[]) =>
          runProcess(
            process.execPath,
            ['-r', 'ts-node/register/transpile-only', 'test/e2e/plugins/cli-with-plugins.ts', ...args],
            env,
          );
        const created = await cli(
          'seller:create',
          '--email',
          'cli@example.com',
          '--password',
          'correct horse battery',
          '--name',
          'Cli',
          '--store',
          'Cli store',
        );
        expect(created.stderr).toBe('');
        expect(created.code).toBe(0);

        const dataSource = new DataSource(dataSourceOptions(database.url, 1));
        await dataSource.initialize();
        try {
          const [row] = await dataSource.query(`SELECT name FROM migrations WHERE name = $1`, [PLUGIN_MIGRATION]);
          expect(row).toEqual({ name: PLUGIN_MIGRATION });
        } finally {
          await dataSource.destroy();
        }
      } finally {
        await database.drop();
      }
    }, 120_000);
  });
});

/** A provider of the probe plugin: every extension below gets this one instance in its constructor. */
@Injectable()
class Probe {
  readonly calls: string[] = [];
}

@Injectable()
class ProbeGateway implements PaymentGateway {
  readonly provider = 'probe';
  readonly methods = ['probe'];
  readonly needsPaymentNumber = false;
  readonly chargesOffSession = false;
  readonly lookupAfterMs = 60_000;
  constructor(readonly probe: Probe) {}
  async charge(): Promise<GatewayOutcome> {
    this.probe.calls.push('charge');
    return { status: 'succeeded', transactionId: 'PROBE-1' };
  }
  async lookup(): Promise<GatewayOutcome> {
    return { status: 'unknown', code: 'NONE', message: 'No answer.' };
  }
  async refund(): Promise<RefundOutcome> {
    return { accepted: true, reference: 'PROBE-R' };
  }
}

@Injectable()
class ProbeChannel implements NotificationChannel {
  readonly name = 'probe';
  constructor(readonly probe: Probe) {}
  async send(): Promise<ChannelResult> {
    this.probe.calls.push('send');
    return { outcome: 'sent' };
  }
}

@Injectable()
class ProbeListener implements EventListenerDefinition {
  readonly name = 'probe.listener';
  readonly types = ['probe.happened'];
  constructor(readonly probe: Probe) {}
  async handle(event: DomainEvent): Promise<void> {
    this.probe.calls.push(`heard ${event.type}`);
  }
}

@Injectable()
class ProbeStorageDriver implements StorageDriver {
  readonly name = 'probe';
  readonly storage = new MemoryFileStorage();
  constructor(readonly probe: Probe) {}
  create(config: AppConfig): FileStorage {
    this.probe.calls.push(`storage for ${config.storage.driver}`);
    return this.storage;
  }
}

@Injectable()
class ProbeKind implements WebhookEventKind {
  readonly kind = 'probe_happened';
  readonly eventTypes = ['probe.happened'];
  constructor(readonly probe: Probe) {}
  async buildPayload(event: DomainEvent): Promise<object> {
    return { event_type: this.kind, event_id: event.id };
  }
}

@Injectable()
class ProbeRule implements CheckoutRule {
  readonly name = 'probe';
  constructor(
    readonly probe: Probe,
    readonly transactions: Transactions,
  ) {}
  async check(candidate: CheckoutCandidate): Promise<void> {
    if (candidate.amount === 1234_00) throw ValidationError.field('amount', 'The probe refuses 1234.');
  }
}

/** A module the probe plugin imports: its providers reach the extensions too. */
@Module({ providers: [{ provide: 'probe-label', useValue: 'from an imported module' }], exports: ['probe-label'] })
class ProbeLabels {}

describe("every extension kind gets the plugin's providers the same way", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { STORAGE_DRIVER: 'probe' },
      plugins: [
        definePlugin({
          name: 'probe',
          imports: [ProbeLabels],
          providers: [Probe],
          paymentGateways: [ProbeGateway],
          notificationChannels: [ProbeChannel],
          eventListeners: [ProbeListener],
          storageDrivers: [ProbeStorageDriver],
          webhookEventKinds: [ProbeKind],
          checkoutRules: [ProbeRule],
        }),
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('constructs each class once, in the plugin module, with the one Probe', async () => {
    const probe = t.app.get(Probe, { strict: false });
    const gateway = t.app.get(PaymentGatewayRegistry).forProvider('probe') as ProbeGateway;
    expect(gateway).toBeInstanceOf(ProbeGateway);
    expect(gateway.probe).toBe(probe);
    const channel = t.app
      .get(NotificationChannels)
      .all()
      .find((c) => c.name === 'probe') as ProbeChannel;
    expect(channel.probe).toBe(probe);
    const kind = t.app.get(WebhookEventKinds).forEventType('probe.happened') as ProbeKind;
    expect(kind.probe).toBe(probe);
    expect(t.app.get(ProbeListener, { strict: false }).probe).toBe(probe);
    expect(t.app.get(ProbeRule, { strict: false }).probe).toBe(probe);
    expect(t.app.get(ProbeRule, { strict: false }).transactions).toBe(t.app.get(Transactions, { strict: false }));
    // The storage the app uses is the driver's, made with the app's configuration.
    const driver = t.app.get(ProbeStorageDriver, { strict: false });
    expect(driver.probe).toBe(probe);
    expect(t.app.get(FILE_STORAGE, { strict: false })).toBe(driver.storage);
    expect(probe.calls).toContain('storage for probe');
    await t.app
      .get<FileStorage>(FILE_STORAGE, { strict: false })
      .put('k', Readable.from([Buffer.from('x')]), 'text/plain');
    expect(driver.storage.objects.has('k')).toBe(true);
    expect(t.app.get(APP_CONFIG, { strict: false }).storage.driver).toBe('probe');
  });

  it('applies the rule a class gives, through the order route', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const product = await api.product({ name: 'Ebook', price: 1234 });
    const res = await t.http
      .post('/v1/orders')
      .set(seller.auth)
      .send({ amount: 1234, product_pid: product.pid, customer: customerBody('probe@example.com') })
      .expect(422);
    expect(res.body.errors).toEqual({ amount: ['The probe refuses 1234.'] });
    await api.order({ amount: 1233, product_pid: product.pid, customer: customerBody('probe@example.com') });
  });
});
