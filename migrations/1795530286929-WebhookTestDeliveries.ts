import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookTestDeliveries1795530286929 implements MigrationInterface {
  name = 'WebhookTestDeliveries1795530286929';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "order_id" DROP NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "order_id" SET NOT NULL`);
  }
}
