import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../utils/free-port';
import { runProcess } from '../../utils/run-process';

jest.setTimeout(180_000);

/** A CLI run that is about to make an embedded database no server uses says so, and how to avoid it. */
describe('the CLI on an empty DATA_DIR with no server', () => {
  it('notes on stderr that it creates a new database and how to reach a running server’s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'commerce-new-db-'));
    const port = await freePort();
    try {
      const res = await runProcess(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', 'seller:create', '--email', 'x'],
        {
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          PORT: String(port),
          BASE_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: '',
        },
      );
      expect(res.stderr).toContain(
        `Note: creating a new embedded database in DATA_DIR=${dataDir}; no running server uses it. ` +
          "To work on a running server's database, run this command with that server's DATA_DIR and PORT (or BASE_URL), or its DATABASE_URL.",
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
