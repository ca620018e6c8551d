import { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1795366229444 implements MigrationInterface {
  name = 'Identity1795366229444';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "api_keys" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "seller_id" integer NOT NULL, "name" character varying NOT NULL, "prefix" character varying NOT NULL, "token_hash" character(64) NOT NULL, "scopes" text array NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_5fda815ecb41c4c37e33f812b4" ON "api_keys"  ("store_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_77f4ee004e33afac232c0a8fd1" ON "api_keys"  ("token_hash") `);
    await queryRunner.query(`CREATE TABLE "sellers" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "name" character varying NOT NULL, "email" character varying NOT NULL, "password_hash" character varying NOT NULL, CONSTRAINT "PK_97337ccbf692c58e6c7682de8a2" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_60a049dd3231ed458dccfdaf40" ON "sellers"  ("email") `);
    await queryRunner.query(`CREATE TABLE "stores" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "seller_id" integer NOT NULL, "name" character varying NOT NULL, "brand" character varying NOT NULL, "currency" character(3) NOT NULL DEFAULT 'MZN', CONSTRAINT "PK_7aa6e7d71fa7acdd7ca43d7c9cb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_540fd9716dec62b65e2d15a8ce" ON "stores"  ("seller_id") `);
    await queryRunner.query(`ALTER TABLE "stores" ADD CONSTRAINT "FK_540fd9716dec62b65e2d15a8ced" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stores" DROP CONSTRAINT "FK_540fd9716dec62b65e2d15a8ced"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_540fd9716dec62b65e2d15a8ce"`);
    await queryRunner.query(`DROP TABLE "stores"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_60a049dd3231ed458dccfdaf40"`);
    await queryRunner.query(`DROP TABLE "sellers"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_77f4ee004e33afac232c0a8fd1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5fda815ecb41c4c37e33f812b4"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
