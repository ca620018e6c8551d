import { MigrationInterface, QueryRunner } from 'typeorm';

export class TestModeStores1795704867701 implements MigrationInterface {
  name = 'TestModeStores1795704867701';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stores" ADD "live_store_id" integer`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_2050f74aa5e44c73f86f69ebb6" ON "stores"  ("live_store_id") `);
    await queryRunner.query(`ALTER TABLE "stores" ADD CONSTRAINT "FK_2050f74aa5e44c73f86f69ebb66" FOREIGN KEY ("live_store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stores" DROP CONSTRAINT "FK_2050f74aa5e44c73f86f69ebb66"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2050f74aa5e44c73f86f69ebb6"`);
    await queryRunner.query(`ALTER TABLE "stores" DROP COLUMN "live_store_id"`);
  }
}
