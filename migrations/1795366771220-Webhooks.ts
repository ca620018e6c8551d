import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795366771220 implements MigrationInterface {
  name = 'Webhooks1795366771220';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "webhooks" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "product_id" integer, "name" character varying, "status" character varying(16) NOT NULL DEFAULT 'active', "secret" character varying NOT NULL, CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_9d355e6bc9de09c571ac468863" ON "webhooks"  ("store_id", "url") `);
    await queryRunner.query(`CREATE INDEX "IDX_3647c04b102cc6219585c9455f" ON "webhooks"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "event_kind" character varying(32) NOT NULL, "order_id" integer NOT NULL, "url" text NOT NULL, "payload" json NOT NULL, "message_id" character varying NOT NULL, "redelivery_of" integer, "state" character varying(16) NOT NULL DEFAULT 'pending', "request_headers" jsonb, "attempted_at" TIMESTAMP WITH TIME ZONE, "response_code" integer, "response_body" text, "duration_ms" integer, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_38515ce86e52097a5f50af8907" ON "webhook_deliveries"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "webhook_delivery_targets" ("delivery_id" integer NOT NULL, "webhook_id" integer NOT NULL, CONSTRAINT "PK_5ee6086ecdd8a128ca52e32d1ce" PRIMARY KEY ("delivery_id", "webhook_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_5ee6086ecdd8a128ca52e32d1c" ON "webhook_delivery_targets"  ("webhook_id", "delivery_id") `);
    await queryRunner.query(`ALTER TABLE "webhook_delivery_targets" ADD CONSTRAINT "FK_519deb1c1820fbf255c03d37144" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery_targets" ADD CONSTRAINT "FK_b307ec11940a8d6bb3a0d791d71" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery_targets" DROP CONSTRAINT "FK_b307ec11940a8d6bb3a0d791d71"`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery_targets" DROP CONSTRAINT "FK_519deb1c1820fbf255c03d37144"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5ee6086ecdd8a128ca52e32d1c"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_targets"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_38515ce86e52097a5f50af8907"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3647c04b102cc6219585c9455f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9d355e6bc9de09c571ac468863"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}
