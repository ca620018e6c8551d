import { MigrationInterface, QueryRunner } from 'typeorm';

export class RefundClaimsIndex1795955197446 implements MigrationInterface {
  name = 'RefundClaimsIndex1795955197446';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_payment_attempts_refund_claims" ON "payment_attempts"  ("updated_at") WHERE "refund_started_at" IS NOT NULL AND "refunded_at" IS NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_payment_attempts_refund_claims"`);
  }
}
