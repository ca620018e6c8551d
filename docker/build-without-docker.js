#!/usr/bin/env node
/*
 * Runs docker/Dockerfile's steps without a Docker engine, so CI keeps them working: each stage in a
 * scratch directory of its own (WORKDIR), its COPY lines from the repository or from an earlier
 * stage, its RUN lines through bash with its ENV, then the last stage's CMD, checked with the
 * HEALTHCHECK command until it passes. Paths outside the image's work directory (`/data`) are
 * mapped into the scratch directory; `chown` and `USER` are skipped (CI is not root-aware).
 *
 * Only the instructions this Dockerfile uses are understood; any other fails loudly, so a change
 * to the Dockerfile cannot silently skip a step here.
 *
 *   node docker/build-without-docker.js [--keep]      (env: PORT, DATABASE_URL passed to the service)
 */
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'commerce-docker-'));
const keep = process.argv.includes('--keep');
const log = (line) => process.stdout.write(`[docker-steps] ${line}\n`);

/** Dockerfile lines with continuations joined and comments dropped. */
function instructions(text) {
  return text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, op, rest] = /^(\S+)\s+([\s\S]*)$/.exec(line);
      return { op: op.toUpperCase(), rest: rest.trim() };
    });
}

/** `ENV A=1 B="x y"` → {A: '1', B: 'x y'}. */
function parseEnv(rest) {
  const out = {};
  for (const [, key, quoted, bare] of rest.matchAll(/(\w+)=(?:"([^"]*)"|(\S*))/g)) out[key] = quoted ?? bare;
  return out;
}

function jsonOrShell(rest) {
  return rest.startsWith('[') ? JSON.parse(rest) : ['bash', '-c', rest];
}

async function main() {
  const stages = new Map();
  let stage;
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir);
  // Absolute paths of the image, mapped into the scratch directory.
  const mapPaths = (text) => text.replace(/(^|[\s=:'"])\/data\b/g, `$1${dataDir}`);
  const inStage = (s, path) => (path.startsWith('/') ? join(s.dir, path.slice(s.workdir.length)) : join(s.dir, path));

  for (const { op, rest } of instructions(readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8'))) {
    switch (op) {
      case 'FROM': {
        const [, name] = /\bAS\s+(\S+)/i.exec(rest) ?? [];
        stage = { name: name ?? `stage${stages.size}`, dir: join(scratch, name ?? `stage${stages.size}`), workdir: '/', env: {}, cmd: undefined, health: undefined };
        mkdirSync(stage.dir, { recursive: true });
        stages.set(stage.name, stage);
        log(`stage ${stage.name} in ${stage.dir}`);
        break;
      }
      case 'WORKDIR':
        stage.workdir = rest;
        break;
      case 'ENV':
        Object.assign(stage.env, Object.fromEntries(Object.entries(parseEnv(rest)).map(([k, v]) => [k, mapPaths(v)])));
        break;
      case 'COPY': {
        const words = rest.split(/\s+/);
        const from = words[0].startsWith('--from=') ? stages.get(words.shift().slice('--from='.length)) : undefined;
        const dest = words.pop();
        for (const source of words) {
          const src = from ? inStage(from, source) : join(root, source);
          const target = dest.endsWith('/') || words.length > 1 ? join(inStage(stage, dest), source.split('/').pop()) : inStage(stage, dest);
          cpSync(src, target, { recursive: true, dereference: false, verbatimSymlinks: true });
        }
        log(`COPY ${rest}`);
        break;
      }
      case 'RUN': {
        const command = mapPaths(rest).replace(/\bchown\b/g, 'true');
        log(`RUN ${command}`);
        execFileSync('bash', ['-c', command], { cwd: stage.dir, stdio: 'inherit', env: { ...process.env, ...stage.env } });
        break;
      }
      case 'CMD':
        stage.cmd = jsonOrShell(rest);
        break;
      case 'HEALTHCHECK':
        stage.health = jsonOrShell(rest.replace(/^(--\S+\s+)*CMD\s+/, ''));
        break;
      case 'USER':
      case 'VOLUME':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`Dockerfile instruction ${op} is not handled by ${__filename}`);
    }
  }

  const runtime = stage;
  if (!runtime.cmd || !runtime.health) throw new Error('The last stage needs a CMD and a HEALTHCHECK');
  const port = process.env.PORT ?? '39124';
  const env = { ...process.env, ...runtime.env, PORT: port, BASE_URL: `http://127.0.0.1:${port}` };
  if (!process.env.DATABASE_URL) delete env.DATABASE_URL;
  log(`CMD ${runtime.cmd.join(' ')} (PORT=${port}, ${env.DATABASE_URL ? 'DATABASE_URL' : 'embedded database'})`);
  let output = '';
  const service = spawn(runtime.cmd[0], runtime.cmd.slice(1), { cwd: runtime.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  service.stdout.on('data', (c) => (output += c));
  service.stderr.on('data', (c) => (output += c));
  const exited = new Promise((res) => service.once('exit', (code) => res(code)));

  let healthy = false;
  for (let i = 0; i < 90 && service.exitCode === null && !healthy; i++) {
    await new Promise((res) => setTimeout(res, 1000));
    try {
      execFileSync(runtime.health[0], runtime.health.slice(1), { env, stdio: 'ignore', timeout: 3000 });
      healthy = true;
    } catch {
      // not up yet
    }
  }
  service.kill('SIGTERM');
  const code = await exited;
  if (!keep) rmSync(scratch, { recursive: true, force: true });
  if (!healthy) {
    process.stdout.write(output);
    throw new Error('the built service never passed its HEALTHCHECK');
  }
  log(`the built service passed its HEALTHCHECK and stopped on SIGTERM (${code === null ? "signal" : `exit ${code}`})`);
}

main().catch((error) => {
  process.stderr.write(`[docker-steps] ${error.message}\n`);
  if (!keep) rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
});
