import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { join, resolve } from 'node:path';
// Types only here: PGlite is required when an embedded database starts, so a service on
// DATABASE_URL (or a CLI that only reads the lock file) does not load it.
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketHandler } from '@electric-sql/pglite-socket';

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

/**
 * What a live server announces for `dataDir`: its embedded database's URL and its own base URL
 * (`BASE_URL`, or the `PORT` it listens on); undefined when none runs (no lock file, or one left by
 * a server that died). PGlite is single-process: another process must go through that server's
 * socket, never open `$DATA_DIR/pg` beside it.
 */
export function announcedEmbedded(dataDir: string): { url: string; baseUrl?: string } | undefined {
  const lock = embeddedLockFile(dataDir);
  if (!existsSync(lock)) return undefined;
  let announced: { pid?: unknown; url?: unknown; base_url?: unknown };
  try {
    announced = JSON.parse(readFileSync(lock, 'utf8')) as typeof announced;
  } catch {
    throw new Error(`Cannot read ${lock}; if no server is running, delete it and retry`);
  }
  const alive = typeof announced.pid === 'number' && isAlive(announced.pid);
  if (!alive || typeof announced.url !== 'string') return undefined;
  return { url: announced.url, ...(typeof announced.base_url === 'string' ? { baseUrl: announced.base_url } : {}) };
}

/** The URL of the embedded database a live server announces for `dataDir` ({@link announcedEmbedded}). */
export function announcedEmbeddedUrl(dataDir: string): string | undefined {
  return announcedEmbedded(dataDir)?.url;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Frontend messages of the extended query protocol. A client sends Parse/Bind/Describe/Execute
// and only then Sync; PGlite has one session, so another connection's messages must not run in
// between (they would replace the unnamed statement and portal, or read this one's results).
const EXTENDED_PROTOCOL = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Serialises the connections' messages onto PGlite's single session. A connection keeps the
 * session from its first message until it is at a message boundary (Sync or a simple Query) AND
 * outside a transaction; the messages of the others wait. This is the queue interface that
 * `PGLiteSocketHandler` expects (`enqueue`, `clearQueueForHandler`, `clearTransactionIfNeeded`).
 */
class SessionQueue {
  private queue: Pending[] = [];
  private owner: number | null = null;
  private running = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('connection closed'));
      return false;
    });
  }

  /** A connection that went away while holding the session gives it back, rolled back. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.drain();
  }

  private next(): Pending | undefined {
    const index = this.owner === null ? 0 : this.queue.findIndex((item) => item.handlerId === this.owner);
    return index < 0 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item!.onData(data);
              },
            }),
          );
          item.resolve(bytes);
        } catch (error) {
          item.reject(error);
        }
        const holds = EXTENDED_PROTOCOL.has(item.message[0]) || this.db.isInTransaction();
        this.owner = holds ? item.handlerId : null;
      }
    } finally {
      this.running = false;
    }
  }
}

async function listen(
  db: PGlite,
  SocketHandler: typeof PGLiteSocketHandler,
): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const queue = new SessionQueue(db);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const handler = new SocketHandler({ db, closeOnDetach: true, queryQueue: queue } as never);
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('embedded database: no TCP address');
  return { server, port: address.port, sockets };
}

/** `baseUrl`: the announcing process's own, for the CLI to print links that lead to it. */
export async function startEmbeddedPostgres(dataDir?: string, baseUrl?: string): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
  let db: PGlite;
  if (dataDir) {
    const pgDir = join(resolve(dataDir), 'pg');
    mkdirSync(pgDir, { recursive: true });
    db = await PGlite.create(pgDir);
  } else {
    db = await PGlite.create();
  }
  const { server, port, sockets } = await listen(db, PGLiteSocketHandler);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const lock = dataDir ? embeddedLockFile(dataDir) : undefined;
  if (lock) writeFileSync(lock, JSON.stringify({ pid: process.pid, url, base_url: baseUrl }));
  return {
    url,
    async stop() {
      if (lock) rmSync(lock, { force: true });
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
      await db.close();
    },
  };
}
