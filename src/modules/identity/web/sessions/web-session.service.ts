import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import connectPgSimple from 'connect-pg-simple';
import type { Request, RequestHandler, Response } from 'express';
import type { FastifyReply, FastifyRequest } from 'fastify';
import session from 'express-session';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { SecretBox } from '../../../../common/crypto';
import { AppConfig } from '../../../../config/app-config';
import { APP_CONFIG } from '../../../../config/config.module';
import { DatabaseConnection } from '../../../../database/database-connection';

declare module 'express-session' {
  interface SessionData {
    sellerId?: number;
    /** The seller's live store. */
    storeId?: number;
    /** Set while the dashboard's "Test mode" switch is on: the live store's test store. */
    testStoreId?: number;
    /**
     * What a form's POST leaves for the page it redirects to, shown once there (post/redirect/get,
     * `ViewsService.flash`): a new secret (sealed, see `WebSessionService.seal`) or a refusal's messages.
     */
    flash?: Record<string, string>;
  }
}

/** Idle dashboard sessions end after a week. */
const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Dashboard sessions (README, *Operating it*) stored in PostgreSQL (`web_sessions`, created by a migration),
 * so every instance shares them. One handler per process: the secret and the store are shared by
 * every controller the middleware is applied to.
 */
@Injectable()
export class WebSessionService implements OnApplicationShutdown {
  readonly handler: RequestHandler;
  private readonly pool: Pool;
  private readonly store: session.Store & { close(): void };
  /** Seals what a session holds for one page (a new API key): the table never has it in clear. */
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig, connection: DatabaseConnection) {
    // Random per boot when unset: sessions then end with the process (README, SESSION_SECRET).
    const secret = config.sessionSecret ?? randomBytes(32).toString('hex');
    this.box = new SecretBox(secret, 'dashboard-session-seal');
    this.pool = new Pool({ connectionString: connection.url, max: 3 });
    // A failed idle connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    const PgStore = connectPgSimple(session);
    this.store = new PgStore({
      pool: this.pool,
      tableName: 'web_sessions',
      createTableIfMissing: false,
      pruneSessionInterval: 15 * 60,
    });
    this.handler = session({
      name: 'sid',
      store: this.store,
      secret,
      resave: false,
      saveUninitialized: false,
      rolling: true,
      proxy: true,
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.urls.web.startsWith('https:'),
        path: config.paths.web || '/',
        maxAge: SESSION_TTL_MS,
      },
    });
  }

  /** The session of a route `WebSessionMiddleware` is not applied to (the 404 page), as it would load it. */
  load(req: FastifyRequest, res: FastifyReply): Promise<void> {
    return new Promise((resolve, reject) =>
      this.handler(req.raw as Request, res.raw as unknown as Response, (error?: unknown) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
      ),
    );
  }

  /**
   * AES-256-GCM under a key derived from the session secret, so a secret kept in the session for
   * the page after a POST (a new API key or client secret, shown once) is not in clear in
   * `web_sessions`: keys and secrets are stored only as their hashes. Every instance that shares
   * the session secret opens it.
   */
  seal(text: string): string {
    return this.box.seal(text);
  }

  /** The text {@link seal} sealed, or null for anything else (another secret's, tampered with). */
  open(sealed: string): string | null {
    try {
      return this.box.open(sealed);
    } catch {
      return null;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.store.close();
    await this.pool.end().catch(() => undefined);
  }
}
