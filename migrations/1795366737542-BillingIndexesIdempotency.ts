import { MigrationInterface, QueryRunner } from 'typeorm';

export class BillingIndexesIdempotency1795366737542 implements MigrationInterface {
  name = 'BillingIndexesIdempotency1795366737542';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "idempotency_keys" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "principal_key" character varying(64) NOT NULL, "key" character varying(255) NOT NULL, "request_hash" character(64) NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'in_flight', "response_status" integer, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8ad20779ad0411107a56e53d0f6" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_5e72f040fdc5efc8eef52a388c" ON "idempotency_keys"  ("created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_d98e3ad124e786cd0e78465a0f" ON "idempotency_keys"  ("store_id", "principal_key", "key") `);
    await queryRunner.query(`CREATE INDEX "IDX_ce4cab2d04bc2381609a986545" ON "orders"  ("customer_id", "status", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_a0bc87507ba81ccf2643bb4c9f" ON "orders"  ("store_id", "product_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_7e3662c00b58db8d87e3a7f8d4" ON "orders"  ("store_id", "status", "created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_7e3662c00b58db8d87e3a7f8d4"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a0bc87507ba81ccf2643bb4c9f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ce4cab2d04bc2381609a986545"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d98e3ad124e786cd0e78465a0f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5e72f040fdc5efc8eef52a388c"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
