import { MigrationInterface, QueryRunner } from 'typeorm';

export class SingleUseCouponIndex1795530229965 implements MigrationInterface {
  name = 'SingleUseCouponIndex1795530229965';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" ADD "coupon_single_use" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_orders_single_use_coupon" ON "orders"  ("discount_id", "customer_id") WHERE "coupon_single_use" AND "status" IN ('pending', 'approved')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_orders_single_use_coupon"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "coupon_single_use"`);
  }
}
