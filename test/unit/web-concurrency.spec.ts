import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../../src/config/app-config';
import { primaryConfig } from '../../src/config/primary-config';

const DATABASE_URL = 'postgres://db.example/commerce';

describe('WEB_CONCURRENCY', () => {
  it('is one process unless set', () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '' }).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
  });

  it('takes a count, or auto for the cores this process may use', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '3', DATABASE_URL }).webConcurrency).toBe(3);
    expect(loadConfig({ WEB_CONCURRENCY: 'auto', DATABASE_URL }).webConcurrency).toBe(availableParallelism());
  });

  it('shares the default pool of 20 connections out among the workers, unless DATABASE_POOL_SIZE says', () => {
    expect(loadConfig({ DATABASE_URL }).database.poolSize).toBe(20);
    expect(loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL }).database.poolSize).toBe(10);
    expect(loadConfig({ WEB_CONCURRENCY: '3', DATABASE_URL }).database.poolSize).toBe(7);
    expect(loadConfig({ WEB_CONCURRENCY: '16', DATABASE_URL }).database.poolSize).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL, DATABASE_POOL_SIZE: '15' }).database.poolSize).toBe(15);
  });

  it('needs an external database for more than one process', () => {
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(
      new ConfigError(
        'Invalid configuration: WEB_CONCURRENCY="2" requires DATABASE_URL (the embedded database serves a single process)',
      ),
    );
  });

  it.each(['0', '-2', '2.5', 'all', ' 2'])('stops on %j', (value) => {
    expect(() => loadConfig({ WEB_CONCURRENCY: value, DATABASE_URL })).toThrow(
      `Invalid configuration: WEB_CONCURRENCY=${JSON.stringify(value)} must be a positive integer or auto`,
    );
  });
});

describe('the cluster primary settings (read without zod)', () => {
  it('asks for a cluster only with more than one worker and a DATABASE_URL; anything else is left to loadConfig', () => {
    for (const value of [undefined, '', '1', '0', 'many', ' 2'])
      expect(primaryConfig({ WEB_CONCURRENCY: value, DATABASE_URL })).toBeUndefined();
    expect(primaryConfig({ WEB_CONCURRENCY: '2' })).toBeUndefined();
    expect(primaryConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: '' })).toBeUndefined();
    expect(primaryConfig({ WEB_CONCURRENCY: '3', DATABASE_URL })?.workers).toBe(3);
    expect(primaryConfig({ WEB_CONCURRENCY: 'auto', DATABASE_URL })?.workers).toBe(
      availableParallelism() > 1 ? availableParallelism() : undefined,
    );
  });

  it('draws the per-boot secrets once for every worker, or passes the configured ones on', () => {
    const drawn = primaryConfig({ WEB_CONCURRENCY: '2', DATABASE_URL })!.sharedEnv;
    expect(drawn.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(drawn.PAYMENT_SANDBOX_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(drawn.SESSION_SECRET).not.toBe(drawn.PAYMENT_SANDBOX_SECRET);
    const given = { SESSION_SECRET: 's'.repeat(20), PAYMENT_SANDBOX_SECRET: 'p'.repeat(20) };
    expect(primaryConfig({ WEB_CONCURRENCY: '2', DATABASE_URL, ...given })!.sharedEnv).toEqual(given);
  });

  it('logs at the level the workers use', () => {
    expect(primaryConfig({ WEB_CONCURRENCY: '2', DATABASE_URL })!.logLevel).toBe('info');
    expect(primaryConfig({ WEB_CONCURRENCY: '2', DATABASE_URL, NODE_ENV: 'test' })!.logLevel).toBe('silent');
    expect(primaryConfig({ WEB_CONCURRENCY: '2', DATABASE_URL, LOG_LEVEL: 'warn' })!.logLevel).toBe('warn');
  });
});
