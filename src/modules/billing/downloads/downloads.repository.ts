import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PreparedStatement } from '../../../database/prepared-statements';
import { DownloadCounter } from './download-counter.entity';
import { DownloadEvent } from './download-event.entity';

/** How many events of each file the audit shows, newest first. */
export const AUDIT_EVENTS_PER_FILE = 50;

@Injectable()
export class DownloadsRepository {
  private readonly statements: {
    take: PreparedStatement;
    eventsOf: PreparedStatement;
  };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.statements = {
      take: new PreparedStatement(
        dataSource,
        `INSERT INTO "download_counters" ("store_id", "order_id", "file_id", "count", "last_downloaded_at")
         VALUES ($1, $2, $3, 1, $4)
         ON CONFLICT ("order_id", "file_id") DO UPDATE
           SET "count" = "download_counters"."count" + 1, "last_downloaded_at" = EXCLUDED."last_downloaded_at"
           WHERE "download_counters"."count" < $5
         RETURNING "count"`,
      ),
      eventsOf: new PreparedStatement(
        dataSource,
        `SELECT "id", "file_id" AS "fileId", "at", "ip_prefix" AS "ipPrefix", "user_agent" AS "userAgent"
         FROM (SELECT *, row_number() OVER (PARTITION BY "file_id" ORDER BY "at" DESC, "id" DESC) AS "n"
               FROM "download_events" WHERE "store_id" = $1 AND "order_id" = $2) "e"
         WHERE "n" <= $3 ORDER BY "at" DESC, "id" DESC`,
      ),
    };
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /**
   * Counts one download unless the file already has `limit`: one statement, so two downloads racing
   * for the last one never both pass. The new count, or null when the limit was reached.
   */
  async take(
    manager: EntityManager,
    key: { storeId: number; orderId: number; fileId: number },
    limit: number,
    at: Date,
  ): Promise<number | null> {
    const rows = await this.statements.take.rows<{ count: number }>(
      [key.storeId, key.orderId, key.fileId, at, limit],
      manager,
    );
    return rows.length ? rows[0].count : null;
  }

  async record(manager: EntityManager, event: Omit<DownloadEvent, 'id'>): Promise<void> {
    await manager.insert(DownloadEvent, event);
  }

  countersOf(storeId: number, orderId: number): Promise<DownloadCounter[]> {
    return this.m().findBy(DownloadCounter, { storeId, orderId });
  }

  /** The newest events of each file of the order. */
  eventsOf(storeId: number, orderId: number): Promise<DownloadEvent[]> {
    return this.statements.eventsOf.rows<DownloadEvent>([storeId, orderId, AUDIT_EVENTS_PER_FILE]);
  }

  async reset(storeId: number, orderId: number): Promise<void> {
    await this.m().update(DownloadCounter, { storeId, orderId }, { count: 0 });
  }
}
