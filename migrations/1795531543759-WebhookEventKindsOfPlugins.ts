import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEventKindsOfPlugins1795531543759 implements MigrationInterface {
  name = 'WebhookEventKindsOfPlugins1795531543759';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "order_id" DROP NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "order_id" SET NOT NULL`);
  }
}
