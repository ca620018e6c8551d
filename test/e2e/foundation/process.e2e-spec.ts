import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { embeddedLockFile } from '../../../src/database/embedded-postgres';
import { freePort } from '../../utils/free-port';
import { spawnService, waitForHealthy } from '../../utils/service-process';

jest.setTimeout(120_000);

describe('the service process', () => {
  it.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ BASE_URL: 'not a url' }, 'BASE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ MAX_FILE_MB: '-1' }, 'MAX_FILE_MB'],
  ])('stops at start-up with one line naming the variable for %j', async (env, name) => {
    const service = spawnService(env);
    const code = await service.exited;
    expect(code).toBe(1);
    const lines = service.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
  });

  it('on a port another process holds, says so and how to choose another (PORT)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'commerce-port-taken-'));
    const port = await freePort();
    const holder = createServer().listen(port);
    try {
      const service = spawnService({ DATA_DIR: dataDir, PORT: String(port) });
      expect(await service.exited).toBe(1);
      expect(service.output()).toMatch(/Start-up failed: .*EADDRINUSE/);
      expect(service.output()).toContain('start this one on another with PORT=<port>');
    } finally {
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps embedded data across a restart and shuts down cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'commerce-persist-'));
    const port = String(await freePort());
    try {
      const first = spawnService({ DATA_DIR: dataDir, PORT: port });
      await waitForHealthy(first);
      const { url } = JSON.parse(readFileSync(embeddedLockFile(dataDir), 'utf8')) as { url: string };
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.query(
        `INSERT INTO sellers (name, email, password_hash) VALUES ('Persisted', 'persist@example.com', 'x')`,
      );
      await client.end();
      await first.stop('SIGTERM');
      // The shutdown hooks ran to the end: the embedded database closed and withdrew its lock file.
      expect(existsSync(embeddedLockFile(dataDir))).toBe(false);

      const second = spawnService({ DATA_DIR: dataDir, PORT: port });
      await waitForHealthy(second);
      const again = JSON.parse(readFileSync(embeddedLockFile(dataDir), 'utf8')) as { url: string };
      const reader = new Client({ connectionString: again.url });
      await reader.connect();
      const { rows } = await reader.query(`SELECT name FROM sellers WHERE email = 'persist@example.com'`);
      await reader.end();
      expect(rows).toEqual([{ name: 'Persisted' }]);
      await second.stop('SIGTERM');
      expect(existsSync(embeddedLockFile(dataDir))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
