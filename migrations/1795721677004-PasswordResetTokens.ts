import { MigrationInterface, QueryRunner } from 'typeorm';

export class PasswordResetTokens1795721677004 implements MigrationInterface {
  name = 'PasswordResetTokens1795721677004';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "password_reset_tokens" ("id" SERIAL NOT NULL, "seller_id" integer NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d16bebd73e844c48bca50ff8d3d" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_32a25101bb33be0391e9e39325" ON "password_reset_tokens"  ("seller_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_91185d86d5d7557b19abbb2868" ON "password_reset_tokens"  ("token_hash") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_91185d86d5d7557b19abbb2868"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_32a25101bb33be0391e9e39325"`);
    await queryRunner.query(`DROP TABLE "password_reset_tokens"`);
  }
}
