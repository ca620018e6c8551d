import { MigrationInterface, QueryRunner } from 'typeorm';

export class SecretFingerprints1795964534476 implements MigrationInterface {
  name = 'SecretFingerprints1795964534476';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "secret_fingerprints" ("name" character varying(32) NOT NULL, "fingerprint" character varying(64) NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_399d256a356eab54911232ba895" PRIMARY KEY ("name"))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "secret_fingerprints"`);
  }
}
