import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/*
 * `npm start` builds only when something changed since the last build. The script runs in a copy
 * of the project's shape with no Nest CLI installed: deciding to build shows as the attempt (and
 * its failure), deciding not to as a silent exit 0.
 */
describe('npm start: build only what changed', () => {
  let root: string;
  const run = () =>
    spawnSync(process.execPath, [join(root, 'scripts', 'build-if-changed.mjs')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true' },
    });
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-if-changed-'));
    mkdirSync(join(root, 'scripts'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'dist', 'src'), { recursive: true });
    copyFileSync(
      resolve(__dirname, '../../scripts/build-if-changed.mjs'),
      join(root, 'scripts', 'build-if-changed.mjs'),
    );
    writeFileSync(join(root, 'src', 'main.ts'), '');
    writeFileSync(join(root, 'dist', 'src', 'main.js'), '');
    writeFileSync(join(root, 'dist', '.build-stamp'), '');
    at(join(root, 'src', 'main.ts'), 1_000);
    at(join(root, 'src'), 1_000);
    at(join(root, 'dist', '.build-stamp'), 2_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('starts without building when the last build is newer than every source', () => {
    const result = run();
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('builds when a source is newer than the last build', () => {
    at(join(root, 'src', 'main.ts'), 3_000);
    const result = run();
    expect(result.stdout).toContain('Sources changed since the last build: building');
    expect(result.status).not.toBe(0); // no Nest CLI in the copy: the build it started fails
  });

  it('builds on the first start (no build yet)', () => {
    rmSync(join(root, 'dist'), { recursive: true });
    const result = run();
    expect(result.stdout).toContain('First start: building');
  });
});
