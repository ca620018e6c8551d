import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, runProcess } from '../../utils/run-process';
import { createTestApp, TestApp } from '../../utils/test-app';

jest.setTimeout(180_000);

const REFUSED = /is not the one this database's download links, license keys and idempotent answers were sealed with/;

/**
 * One delivery secret per database (README, `DELIVERY_SECRET`): a process with another one (a second
 * host without the variable, the CLI on another DATA_DIR) is refused before it signs or seals
 * anything, until an operator adopts the new secret on purpose.
 */
describe('the delivery secret of a database', () => {
  let t: TestApp;
  let otherDir: string;
  const seller = (email: string) => [
    'seller:create',
    '--email',
    email,
    '--password',
    'password123',
    '--name',
    'Ops',
    '--store',
    'Ops Store',
  ];

  beforeAll(async () => {
    t = await createTestApp();
    otherDir = mkdtempSync(join(tmpdir(), 'commerce-other-secret-'));
  });
  afterAll(async () => {
    rmSync(otherDir, { recursive: true, force: true });
    await t.close();
  });

  it('is recorded by the first process as a fingerprint, never the secret', async () => {
    const rows: Array<{ name: string; fingerprint: string }> = await t.dataSource.query(
      'SELECT name, fingerprint FROM secret_fingerprints',
    );
    expect(rows).toEqual([{ name: 'delivery', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it('refuses the CLI and the server on another DATA_DIR or DELIVERY_SECRET, with what to do; nothing written', async () => {
    const database = t.config.database.url!;
    const otherDirCli = await runCli(seller('other-dir@example.com'), { DATABASE_URL: database, DATA_DIR: otherDir });
    expect(otherDirCli.code).toBe(1);
    expect(otherDirCli.stderr).toMatch(REFUSED);
    expect(otherDirCli.stderr).toContain('delivery.key (DELIVERY_SECRET unset)');
    expect(otherDirCli.stderr).toContain('npm run cli -- delivery-secret:adopt');
    const otherSecret = await runCli(seller('other-secret@example.com'), {
      DATABASE_URL: database,
      DELIVERY_SECRET: 'another-secret-of-at-least-32-characters!',
    });
    expect(otherSecret.code).toBe(1);
    expect(otherSecret.stderr).toMatch(REFUSED);
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM sellers WHERE email IN ('other-dir@example.com', 'other-secret@example.com')`,
    );
    expect(n).toBe(0);

    const server = await runProcess(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      DATABASE_URL: database,
      DATA_DIR: otherDir,
      PORT: '0',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
    });
    expect(server.code).toBe(1);
    expect(server.stderr).toMatch(/^Start-up failed: .*is not the one this database's download links/m);
  });

  it("delivery-secret:adopt makes another secret the database's on purpose; the old one is then refused", async () => {
    const database = t.config.database.url!;
    const adopted = await runCli(['delivery-secret:adopt'], { DATABASE_URL: database, DATA_DIR: otherDir });
    expect(adopted).toMatchObject({ code: 0, json: { adopted: true } });
    const created = await runCli(seller('adopted@example.com'), { DATABASE_URL: database, DATA_DIR: otherDir });
    expect(created.code).toBe(0);
    const old = await runCli(seller('old@example.com'), { DATABASE_URL: database });
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(REFUSED);
  });
});
