import { ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A clean database for one test file: a new database on the PostgreSQL of `DATABASE_URL`, or an
 * in-memory embedded PostgreSQL in a child process when it is unset. The app's start-up
 * migrations build the schema.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  return adminUrl ? createPostgresDatabase(adminUrl) : startEmbeddedServer();
}

async function createPostgresDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `commerce_test_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

function startEmbeddedServer(): Promise<TestDatabase> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(join(__dirname, 'embedded-server.js'), [], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n')) {
        resolve({
          url: line.trim(),
          drop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`embedded database exited with ${code}`)));
  });
}
