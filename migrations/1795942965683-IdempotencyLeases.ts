import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyLeases1795942965683 implements MigrationInterface {
  name = 'IdempotencyLeases1795942965683';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "lease_id" uuid`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "lease_expires_at" TIMESTAMP WITH TIME ZONE`);
    // A key left in flight by a process that stopped before this version can be taken over at once.
    await queryRunner.query(`UPDATE "idempotency_keys" SET "lease_expires_at" = now() WHERE "state" = 'in_flight'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "lease_expires_at"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "lease_id"`);
  }
}
