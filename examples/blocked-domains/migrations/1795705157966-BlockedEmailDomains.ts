import { MigrationInterface, QueryRunner } from 'typeorm';

export class BlockedEmailDomains1795705157966 implements MigrationInterface {
  name = 'BlockedEmailDomains1795705157966';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "blocked_email_domains" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "domain" character varying(253) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_822f3437f1058b76d0a3e15dfb7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_b569d2cfd803fa728b198a84b6" ON "blocked_email_domains"  ("store_id", "domain") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_b569d2cfd803fa728b198a84b6"`);
    await queryRunner.query(`DROP TABLE "blocked_email_domains"`);
  }
}
