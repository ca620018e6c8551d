import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(180_000);

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const CLIENTS = join(ROOT, 'test', 'clients');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/**
 * A client generated from the served description with openapi-typescript and
 * called through openapi-fetch compiles and works (test/clients/discount-order.ts).
 */
describe('a typed client generated from /docs-json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ listen: true });
  });
  afterAll(() => t.close());

  it('is generated, type-checks and creates a discount, an order with it and reads the order back', async () => {
    const doc = await (await fetch(`${t.baseUrl}/docs-json`)).text();
    mkdirSync(join(CLIENTS, 'generated'), { recursive: true });
    const source = join(CLIENTS, 'generated', 'openapi.json');
    writeFileSync(source, doc);
    await run(bin('openapi-typescript'), [source, '-o', join(CLIENTS, 'generated', 'commerce-api.d.ts')]);
    // Type errors fail here, with tsc's own report.
    await run(bin('tsc'), ['-p', join(CLIENTS, 'tsconfig.json')]).catch(
      (error: { stdout?: string; message: string }) => {
        throw new Error(`the typed client does not compile:\n${error.stdout || error.message}`);
      },
    );

    const seller = await createSeller(t, {
      scopes: ['products.write', 'discounts.write', 'orders.write', 'orders.read'],
    });
    const { stdout } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(CLIENTS, 'discount-order.ts'), t.baseUrl, seller.token],
      {
        cwd: ROOT,
      },
    );
    const result = JSON.parse(stdout);
    expect(result.discount).toMatchObject({ type: 'percent', value: 10 });
    expect(result.order).toMatchObject({
      status: 'pending',
      original_amount: 1500,
      discount_amount: 150,
      amount: 1350,
      coupon_code: result.discount.code,
      discount_code: result.discount.code,
      product_pid: expect.stringMatching(/^prod_/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(result.checkout_url).toMatch(/\/pay\/token\//);
    expect(Number(result.rate_limit_remaining)).toBeGreaterThan(0);
  });
});
