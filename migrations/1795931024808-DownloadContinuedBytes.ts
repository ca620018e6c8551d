import { MigrationInterface, QueryRunner } from 'typeorm';

export class DownloadContinuedBytes1795931024808 implements MigrationInterface {
  name = 'DownloadContinuedBytes1795931024808';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "download_counters" ADD "continued_bytes" bigint NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "download_counters" DROP COLUMN "continued_bytes"`);
  }
}
