import { MigrationInterface, QueryRunner } from 'typeorm';

export class PaymentAttempts1795530529563 implements MigrationInterface {
  name = 'PaymentAttempts1795530529563';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "payment_attempts" ("id" SERIAL NOT NULL, "reference" character varying(32) NOT NULL, "order_id" integer NOT NULL, "store_id" integer NOT NULL, "method" character varying(32) NOT NULL, "provider" character varying(32) NOT NULL, "amount" numeric(12,2) NOT NULL, "currency" character(3) NOT NULL, "payment_number" character varying(32), "status" character varying(16) NOT NULL, "off_session" boolean NOT NULL DEFAULT false, "transaction_id" character varying(255), "gateway_reference" character varying(255), "redirect_url" text, "error_code" character varying(64), "error_message" character varying(500), "refund_started_at" TIMESTAMP WITH TIME ZONE, "refunded_at" TIMESTAMP WITH TIME ZONE, "refund_reference" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a0d8a67c07a0fef98dfd20214e5" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_512b5990d764ce231bff0e44f2" ON "payment_attempts"  ("reference") `);
    await queryRunner.query(`CREATE INDEX "IDX_payment_attempts_open" ON "payment_attempts"  ("created_at") WHERE "status" IN ('processing', 'unknown')`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_payment_attempts_processing_order" ON "payment_attempts"  ("order_id") WHERE "status" = 'processing'`);
    await queryRunner.query(`CREATE INDEX "IDX_715e754daafc1b7e65d5e517d0" ON "payment_attempts"  ("order_id", "created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_715e754daafc1b7e65d5e517d0"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_payment_attempts_processing_order"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_payment_attempts_open"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_512b5990d764ce231bff0e44f2"`);
    await queryRunner.query(`DROP TABLE "payment_attempts"`);
  }
}
