import { MigrationInterface, QueryRunner } from 'typeorm';

export class AffiliatesSoftDelete1795946697929 implements MigrationInterface {
  name = 'AffiliatesSoftDelete1795946697929';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "affiliates" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "affiliates" DROP COLUMN "deleted_at"`);
  }
}
