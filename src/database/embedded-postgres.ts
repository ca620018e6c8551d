import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Embedded PostgreSQL: PGlite behind a local socket server, so TypeORM's ordinary `pg` driver and
 * the same migrations work with no database server installed. `dataDir` undefined keeps the
 * database in memory (tests).
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Where a running server announces its embedded database, so the operator CLI can reach it. */
export const embeddedLockFile = (dataDir: string): string => join(resolve(dataDir), 'pg.server.json');

export async function startEmbeddedPostgres(dataDir?: string): Promise<EmbeddedPostgres> {
  let db: PGlite;
  if (dataDir) {
    const pgDir = join(resolve(dataDir), 'pg');
    mkdirSync(pgDir, { recursive: true });
    db = await PGlite.create(pgDir);
  } else {
    db = await PGlite.create();
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const url = `postgres://postgres:postgres@${server.getServerConn()}/postgres`;
  const lock = dataDir ? embeddedLockFile(dataDir) : undefined;
  if (lock) writeFileSync(lock, JSON.stringify({ pid: process.pid, url }));
  return {
    url,
    async stop() {
      if (lock) rmSync(lock, { force: true });
      await server.stop();
      await db.close();
    },
  };
}
