import { MigrationInterface, QueryRunner } from 'typeorm';

export class DownloadContinuationsUncounted1795975234657 implements MigrationInterface {
  name = 'DownloadContinuationsUncounted1795975234657';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "download_counters" DROP COLUMN "continued_bytes"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "download_counters" ADD "continued_bytes" bigint NOT NULL DEFAULT '0'`);
  }
}
