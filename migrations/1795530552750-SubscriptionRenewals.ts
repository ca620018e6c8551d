import { MigrationInterface, QueryRunner } from 'typeorm';

export class SubscriptionRenewals1795530552750 implements MigrationInterface {
  name = 'SubscriptionRenewals1795530552750';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" ADD "subscription_id" integer`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "subscription_period" integer`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "cancel_at_period_end" boolean NOT NULL DEFAULT false`);
    // Subscriptions started before renewals: their plan's interval, and their order linked as period 1.
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "interval" character varying(8)`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "interval_count" integer`);
    await queryRunner.query(
      `UPDATE "subscriptions" s SET "interval" = p."interval", "interval_count" = p."interval_count" FROM "plans" p WHERE p."id" = s."plan_id"`,
    );
    await queryRunner.query(`UPDATE "subscriptions" SET "interval" = 'month', "interval_count" = 1 WHERE "interval" IS NULL`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ALTER COLUMN "interval" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ALTER COLUMN "interval_count" SET NOT NULL`);
    await queryRunner.query(
      `UPDATE "orders" o SET "subscription_id" = s."id", "subscription_period" = 1 FROM "subscriptions" s WHERE s."order_id" = o."id"`,
    );
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "periods" integer NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "renewal_attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_a364189ca7028d022d8e045c08" ON "orders"  ("subscription_id", "subscription_period") `);
    await queryRunner.query(`CREATE INDEX "IDX_98a4e1e3025f768de1493ecede" ON "subscriptions"  ("customer_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_2e76487a6d7b490e1c0c8519ff" ON "subscriptions"  ("store_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_e377befbbb45638ce288d966ac" ON "subscriptions"  ("status", "end_date") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_e377befbbb45638ce288d966ac"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2e76487a6d7b490e1c0c8519ff"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_98a4e1e3025f768de1493ecede"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a364189ca7028d022d8e045c08"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "renewal_attempts"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "periods"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "interval_count"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "interval"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "cancel_at_period_end"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "subscription_period"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "subscription_id"`);
  }
}
