import { loadConfig } from '../../src/config/app-config';
import { prettyLogs } from '../../src/logging';
import { describeDatabase, startupBlock, startupSummary } from '../../src/server';

describe('start-up summary', () => {
  it('names every surface, the embedded database path and the gateways in one block', () => {
    const config = loadConfig({ PORT: '4100', DATA_DIR: '/srv/shop' });
    const block = startupBlock(startupSummary(config, ['sandbox (mpesa, emola)']));
    expect(block.split('\n')).toEqual([
      'Commerce API is ready',
      '  API         http://localhost:4100/v1',
      '  Swagger UI  http://localhost:4100/docs',
      '  Dashboard   http://localhost:4100/web/',
      '  Checkout    http://localhost:4100/pay/token/<pay_token>',
      '  Database    embedded PostgreSQL in /srv/shop/pg',
      '  Payments    sandbox (mpesa, emola)',
    ]);
  });

  it('shows DATABASE_URL without its credentials', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://shop:s3cret@db.internal:5433/commerce' });
    expect(describeDatabase(config)).toBe('PostgreSQL db.internal:5433/commerce');
    expect(JSON.stringify(startupSummary(config))).not.toContain('s3cret');
  });

  it('follows the surfaces to their own hosts', () => {
    const config = loadConfig({
      BASE_URL: 'https://api.shop.example',
      WEB_URL: 'https://app.shop.example',
      PAY_URL: 'https://pay.shop.example',
    });
    expect(startupSummary(config)).toMatchObject({
      dashboard: 'https://app.shop.example/',
      checkout: 'https://pay.shop.example/token/<pay_token>',
    });
  });

  it('is pretty only at a terminal in development', () => {
    expect(prettyLogs({ nodeEnv: 'development' }, true)).toBe(true);
    expect(prettyLogs({ nodeEnv: 'development' }, false)).toBe(false);
    expect(prettyLogs({ nodeEnv: 'production' }, true)).toBe(false);
    expect(prettyLogs({ nodeEnv: 'test' }, true)).toBe(false);
    expect(prettyLogs({ nodeEnv: 'development', logFormat: 'json' }, true)).toBe(false);
    expect(prettyLogs({ nodeEnv: 'development', logFormat: 'auto' }, true)).toBe(true);
  });
});
