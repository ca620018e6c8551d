import { MigrationInterface, QueryRunner } from 'typeorm';

export class ListIndexesInPageOrder1795370639578 implements MigrationInterface {
  name = 'ListIndexesInPageOrder1795370639578';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_6a895a83bb594d553632e64155"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_11fefa35e3ef25881234b8b89a"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ce4cab2d04bc2381609a986545"`);
    await queryRunner.query(`CREATE INDEX "IDX_08bf40f4a5195e78f79ddf1b90" ON "orders"  ("plan_id", "store_id", "created_at", "id") WHERE "status" IN ('approved', 'refunded')`);
    await queryRunner.query(`CREATE INDEX "IDX_6b66fd620f6e78de1960e7ec5b" ON "orders"  ("customer_id", "status", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_4d0fbb5a348e8fa8e5198fc78c" ON "orders"  ("customer_id", "created_at", "id") `);
  }

  // Generated; the column order of the indexes recreated here is fixed by hand (the generator read
  // them back sorted by name).
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_4d0fbb5a348e8fa8e5198fc78c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6b66fd620f6e78de1960e7ec5b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_08bf40f4a5195e78f79ddf1b90"`);
    await queryRunner.query(`CREATE INDEX "IDX_ce4cab2d04bc2381609a986545" ON "orders"  ("customer_id", "status", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_11fefa35e3ef25881234b8b89a" ON "orders"  ("customer_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_6a895a83bb594d553632e64155" ON "orders"  ("plan_id", "created_at") `);
  }
}
