import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every payment attempt has a transaction id (README, *Taking payments*): a decline the gateway
 * gave none records the one it gave its order, `{provider}_{reference}` (transactionIdOf). Attempts
 * declined before that rule get theirs here; their orders already carry it.
 */
export class FailedAttemptTransactionIds1795970000000 implements MigrationInterface {
  name = 'FailedAttemptTransactionIds1795970000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "payment_attempts" SET "transaction_id" = "provider" || '_' || "reference"
       WHERE "status" = 'failed' AND "transaction_id" IS NULL`,
    );
  }

  public async down(): Promise<void> {
    // The ids stay: they are the orders' too.
  }
}
