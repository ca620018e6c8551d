import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerMessages1795530823571 implements MigrationInterface {
  name = 'CustomerMessages1795530823571';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "customer_messages" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "channel" character varying(32) NOT NULL, "kind" character varying(32) NOT NULL, "ref" character varying(64) NOT NULL, "order_id" integer NOT NULL, "event_id" uuid NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "claimed_until" TIMESTAMP WITH TIME ZONE, "recipient" character varying, "detail" text, "last_error" text, "sent_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_52b68322d40a03f839625419245" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_b882a52e0680e028fcffc92bf7" ON "customer_messages"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_453283b7f124ab982130b96d06" ON "customer_messages"  ("channel", "kind", "ref") `);
    await queryRunner.query(`ALTER TABLE "stores" ADD "email_customers" boolean NOT NULL DEFAULT true`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stores" DROP COLUMN "email_customers"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_453283b7f124ab982130b96d06"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b882a52e0680e028fcffc92bf7"`);
    await queryRunner.query(`DROP TABLE "customer_messages"`);
  }
}
