import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { Client } from 'pg';
import { DatabaseConnection } from '../../../database/database-connection';

/** Advisory lock class (first key) of worker leases; the second key is the process's token. */
export const LEASE_LOCK_CLASS = 0x7768; // "wh"

/**
 * This process's lease as a delivering worker: a session advisory lock `(LEASE_LOCK_CLASS, token)`
 * held on a connection of its own for as long as the process lives. A delivery is claimed with
 * the token; PostgreSQL drops the lock the moment the process dies (SIGKILL included: its socket
 * closes), so "claimed by a worker that is gone" is a question any instance can ask the database
 * (`pg_locks`), with no timeout to wait out and no clock to trust.
 *
 * One connection per delivering process, idle but for the lock. If it is lost while the process
 * lives (a database restart), another worker may take one of our deliveries for dead and send it
 * too: a duplicate with the same `webhook-id`, which at-least-once delivery allows.
 */
@Injectable()
export class WorkerLease implements OnApplicationShutdown {
  private readonly logger = new Logger(WorkerLease.name);
  private client?: Client;
  private acquiring?: Promise<number>;
  private currentToken = 0;
  private closed = false;

  constructor(private readonly connection: DatabaseConnection) {}

  /** The token of a lease this process holds, taking (or taking again) the lease if needed. */
  async token(): Promise<number> {
    if (this.client) return this.currentToken;
    this.acquiring ??= this.acquire().finally(() => (this.acquiring = undefined));
    return this.acquiring;
  }

  private async acquire(): Promise<number> {
    if (this.closed) throw new Error('The worker lease is released (shutting down).');
    const client = new Client({ connectionString: this.connection.url, application_name: 'commerce-webhook-lease' });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (!this.closed) this.logger.warn('Webhook worker lease lost; taken again on the next delivery');
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    try {
      for (;;) {
        const token = this.currentToken || randomInt(1, 2 ** 31 - 1);
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
          LEASE_LOCK_CLASS,
          token,
        ]);
        if (rows[0].locked) {
          this.currentToken = token;
          break;
        }
        // Another live process holds this token (a 1 in 2^31 draw): draw again.
        this.currentToken = 0;
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return this.currentToken;
  }

  /** After every in-flight delivery has finished (beforeApplicationShutdown of the queue). */
  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.acquiring?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
