import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderBuyerDetails1795710056310 implements MigrationInterface {
  name = 'OrderBuyerDetails1795710056310';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" ADD "customer_name" character varying`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "customer_mobile_number" character varying`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "customer_payment_number" character varying`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "customer_payment_number"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "customer_mobile_number"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "customer_name"`);
  }
}
