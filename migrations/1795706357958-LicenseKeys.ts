import { MigrationInterface, QueryRunner } from 'typeorm';

export class LicenseKeys1795706357958 implements MigrationInterface {
  name = 'LicenseKeys1795706357958';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "license_instances" ("id" SERIAL NOT NULL, "license_key_id" integer NOT NULL, "name" character varying(255) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_96763b262db31b115d2f3889e92" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_81bf86b1366ce604838d914626" ON "license_instances"  ("license_key_id") `);
    await queryRunner.query(`CREATE TABLE "license_keys" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "order_id" integer NOT NULL, "product_id" integer NOT NULL, "product_pid" character varying NOT NULL, "subscription_id" integer, "key_hash" character varying(64) NOT NULL, "key_sealed" character varying(128) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "activation_limit" integer, "activations" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b2711aaaf68d41a34461591519f" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_254fb75b27bb2b9fdae2198d3e" ON "license_keys"  ("subscription_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_ff6435b8eeee096f5c1c216971" ON "license_keys"  ("key_hash") `);
    await queryRunner.query(`CREATE INDEX "IDX_daff6cd15c46bd6c675c7f203d" ON "license_keys"  ("store_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_efcd8312d19ffde5d0b6b64fb6" ON "license_keys"  ("order_id", "product_id") `);
    await queryRunner.query(`ALTER TABLE "products" ADD "license_keys_enabled" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "products" ADD "license_activation_limit" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "products" DROP COLUMN "license_activation_limit"`);
    await queryRunner.query(`ALTER TABLE "products" DROP COLUMN "license_keys_enabled"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_efcd8312d19ffde5d0b6b64fb6"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_daff6cd15c46bd6c675c7f203d"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ff6435b8eeee096f5c1c216971"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_254fb75b27bb2b9fdae2198d3e"`);
    await queryRunner.query(`DROP TABLE "license_keys"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_81bf86b1366ce604838d914626"`);
    await queryRunner.query(`DROP TABLE "license_instances"`);
  }
}
