import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveryClaimLease1795530981967 implements MigrationInterface {
  name = 'WebhookDeliveryClaimLease1795530981967';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "claimed_by" integer`);
    await queryRunner.query(`CREATE INDEX "IDX_webhook_deliveries_unfinished" ON "webhook_deliveries"  ("id") WHERE state IN ('pending', 'sending')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_deliveries_unfinished"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_by"`);
  }
}
