import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../../src/config/app-config';

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

  it('needs an external database for more than one process', () => {
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(
      new ConfigError('Invalid configuration: WEB_CONCURRENCY="2" requires DATABASE_URL (the embedded database serves a single process)'),
    );
  });

  it.each(['0', '-2', '2.5', 'all', ' 2'])('stops on %j', (value) => {
    expect(() => loadConfig({ WEB_CONCURRENCY: value, DATABASE_URL })).toThrow(
      `Invalid configuration: WEB_CONCURRENCY=${JSON.stringify(value)} must be a positive integer or auto`,
    );
  });
});
