import { MigrationInterface, QueryRunner } from 'typeorm';

export class DiscountConstraints1795366692484 implements MigrationInterface {
  name = 'DiscountConstraints1795366692484';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_3ac3d3100b672ff28b91e3cfab"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_discounts_store_id_code_key" ON "discounts"  ("store_id", "code_key") `);
    await queryRunner.query(`ALTER TABLE "discounts" ADD CONSTRAINT "CHK_discounts_used_count" CHECK ("used_count" >= 0 AND ("uses_limit" IS NULL OR "used_count" <= "uses_limit"))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "discounts" DROP CONSTRAINT "CHK_discounts_used_count"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_discounts_store_id_code_key"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_3ac3d3100b672ff28b91e3cfab" ON "discounts" ("store_id", "code_key") `);
  }
}
