// `npm start`: build only when a source, a migration or a build setting is newer than the last
// build, so a restart with nothing changed starts at once (a full `nest build` takes ~30 s).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'migrations', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const lastBuild = existsSync(stamp) && existsSync(join(root, 'dist', 'src', 'main.js')) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...inputs.map((input) => newest(join(root, input))));
if (changed <= lastBuild) process.exit(0);

process.stdout.write(lastBuild ? 'Sources changed since the last build: building…\n' : 'First start: building…\n');
const started = Date.now();
const build = spawnSync('npx', ['--no-install', 'nest', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
writeFileSync(stamp, `${new Date().toISOString()}\n`);
process.stdout.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
