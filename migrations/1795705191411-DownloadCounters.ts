import { MigrationInterface, QueryRunner } from 'typeorm';

export class DownloadCounters1795705191411 implements MigrationInterface {
  name = 'DownloadCounters1795705191411';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "download_counters" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "order_id" integer NOT NULL, "file_id" integer NOT NULL, "count" integer NOT NULL DEFAULT '0', "last_downloaded_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4e0fdcb0e383802f7f6e76d72e0" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_7deedfe9de83e9dc96ae7da171" ON "download_counters"  ("order_id", "file_id") `);
    await queryRunner.query(`CREATE TABLE "download_events" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "order_id" integer NOT NULL, "file_id" integer NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "ip_prefix" character varying(64), "user_agent" character varying(255), CONSTRAINT "PK_9ce980188c138c79fc6c5214c74" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_bb6ebc5dfc2d56e7399acd5307" ON "download_events"  ("order_id", "file_id", "at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_bb6ebc5dfc2d56e7399acd5307"`);
    await queryRunner.query(`DROP TABLE "download_events"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7deedfe9de83e9dc96ae7da171"`);
    await queryRunner.query(`DROP TABLE "download_counters"`);
  }
}
