import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityOAuthAndSessions1795366696505 implements MigrationInterface {
  name = 'IdentityOAuthAndSessions1795366696505';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "oauth_apps" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "seller_id" integer NOT NULL, "name" character varying NOT NULL, "client_id" character varying NOT NULL, "client_secret_hash" character varying NOT NULL, "redirect_uris" text array NOT NULL, "active" boolean NOT NULL DEFAULT true, CONSTRAINT "PK_8871ea4a8e0f9f551e53908e0f1" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_f3da4799b5dc171a7afab4881c" ON "oauth_apps"  ("store_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_85c68ad39cb0d7df35d56a6dbf" ON "oauth_apps"  ("client_id") `);
    await queryRunner.query(`CREATE TABLE "oauth_authorization_codes" ("id" SERIAL NOT NULL, "grant_id" integer NOT NULL, "app_id" integer NOT NULL, "code_hash" character(64) NOT NULL, "redirect_uri" character varying NOT NULL, "state" character varying, "code_challenge" character varying, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_441350d3fce3606534fbb2c1197" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_691bd41013d77d213ee0dcd59b" ON "oauth_authorization_codes"  ("grant_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_25c7c7a7cdc5a6eb88200c472c" ON "oauth_authorization_codes"  ("code_hash") `);
    await queryRunner.query(`CREATE TABLE "oauth_grants" ("id" SERIAL NOT NULL, "app_id" integer NOT NULL, "store_id" integer NOT NULL, "seller_id" integer NOT NULL, "scopes" text array NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_197229704270fa696b539aa1a22" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_7e15a413f57fc410cd11f1df98" ON "oauth_grants"  ("app_id") `);
    await queryRunner.query(`CREATE TABLE "oauth_tokens" ("id" SERIAL NOT NULL, "grant_id" integer NOT NULL, "app_id" integer NOT NULL, "store_id" integer NOT NULL, "seller_id" integer NOT NULL, "access_token_hash" character(64) NOT NULL, "refresh_token_hash" character(64) NOT NULL, "scopes" text array NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "rotated_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_71c8b8060826696206f973554fd" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_07c605221e8078326fa6e0da8f" ON "oauth_tokens"  ("grant_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_106cc08f99327d67172b5ecf4a" ON "oauth_tokens"  ("access_token_hash") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_c740cc0990265bb0e8e51ca986" ON "oauth_tokens"  ("refresh_token_hash") `);
    await queryRunner.query(`CREATE TABLE "web_sessions" ("sid" character varying NOT NULL, "sess" json NOT NULL, "expire" TIMESTAMP(6) NOT NULL, CONSTRAINT "PK_ba1be21cb4a500b23fa1eca1013" PRIMARY KEY ("sid"))`);
    await queryRunner.query(`CREATE INDEX "IDX_60f48ce30c9624cb7107515525" ON "web_sessions"  ("expire") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_60f48ce30c9624cb7107515525"`);
    await queryRunner.query(`DROP TABLE "web_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c740cc0990265bb0e8e51ca986"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_106cc08f99327d67172b5ecf4a"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_07c605221e8078326fa6e0da8f"`);
    await queryRunner.query(`DROP TABLE "oauth_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7e15a413f57fc410cd11f1df98"`);
    await queryRunner.query(`DROP TABLE "oauth_grants"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_25c7c7a7cdc5a6eb88200c472c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_691bd41013d77d213ee0dcd59b"`);
    await queryRunner.query(`DROP TABLE "oauth_authorization_codes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_85c68ad39cb0d7df35d56a6dbf"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f3da4799b5dc171a7afab4881c"`);
    await queryRunner.query(`DROP TABLE "oauth_apps"`);
  }
}
