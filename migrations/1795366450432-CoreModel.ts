import { MigrationInterface, QueryRunner } from 'typeorm';

export class CoreModel1795366450432 implements MigrationInterface {
  name = 'CoreModel1795366450432';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "affiliates" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "name" character varying NOT NULL, "email" character varying NOT NULL, "commission_percent" numeric(5,2) NOT NULL, CONSTRAINT "PK_5458bf988fb83086da3a14b9ff9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_55b189eec3a96438c36537255d" ON "affiliates"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "discounts" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "code" character varying NOT NULL, "code_key" character varying NOT NULL, "type" character varying(8) NOT NULL, "value" numeric(12,2) NOT NULL, "status" character varying(8) NOT NULL DEFAULT 'active', "product_ids" integer array NOT NULL DEFAULT '{}', "uses_limit" integer, "used_count" integer NOT NULL DEFAULT '0', "single_use" boolean NOT NULL DEFAULT false, "never_expires" boolean NOT NULL DEFAULT true, "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_66c522004212dc814d6e2f14ecc" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_dfbc07f358e0ebaca9dc5e930e" ON "discounts"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_3ac3d3100b672ff28b91e3cfab" ON "discounts"  ("store_id", "code_key") `);
    await queryRunner.query(`CREATE TABLE "customers" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "email" character varying NOT NULL, "name" character varying NOT NULL, "mobile_number" character varying NOT NULL, "payment_number" character varying, CONSTRAINT "PK_133ec679a801fab5e070f73d3ea" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_5461cff9c015eebd7d4fa1173c" ON "customers"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_28dcba930ec4f05d6c98648520" ON "customers"  ("store_id", "email") `);
    await queryRunner.query(`CREATE TABLE "subscriptions" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "order_id" integer NOT NULL, "plan_id" integer NOT NULL, "customer_id" integer NOT NULL, "status" character varying(16) NOT NULL, "start_date" TIMESTAMP WITH TIME ZONE NOT NULL, "end_date" TIMESTAMP WITH TIME ZONE NOT NULL, "cancelled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_ccfc7ea837d795c87eef10bf51" ON "subscriptions"  ("store_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_6bdf99a2aee06482f33465a70e" ON "subscriptions"  ("order_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_e45fca5d912c3a2fab512ac25d" ON "subscriptions"  ("plan_id") `);
    await queryRunner.query(`CREATE TABLE "order_bump_items" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "product_id" integer NOT NULL, "product_pid" character varying NOT NULL, "name" character varying NOT NULL, "price" numeric(12,2) NOT NULL, CONSTRAINT "PK_d619fd91f6c705b4f2aa6f842fb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_d59105f9b01dae781fde69723a" ON "order_bump_items"  ("order_id") `);
    await queryRunner.query(`CREATE TABLE "product_files" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "product_id" integer NOT NULL, "name" character varying NOT NULL, "kind" character varying(8) NOT NULL, "storage_key" character varying, "external_url" character varying, "size_bytes" bigint NOT NULL DEFAULT '0', "format" character varying NOT NULL, "content_type" character varying, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d741e1a2d0cde49c1f897048626" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_74cd92744d47a39764faffaf9e" ON "product_files"  ("store_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_59ac1d733e20dd1b96dc189e1e" ON "product_files"  ("storage_key") WHERE storage_key IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_d9255037ce324122b28cfaa548" ON "product_files"  ("product_id", "id") `);
    await queryRunner.query(`CREATE TABLE "order_bumps" ("id" SERIAL NOT NULL, "store_id" integer NOT NULL, "product_id" integer NOT NULL, "bump_product_id" integer NOT NULL, "price" numeric(12,2) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_22a40dec855c07139e534fde586" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_2ac8912bd0df8d4d7f503c251d" ON "order_bumps"  ("store_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_c3a5f384b9afa58806752ada0b" ON "order_bumps"  ("product_id", "bump_product_id") `);
    await queryRunner.query(`CREATE TABLE "orders" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "order_number" character varying NOT NULL, "pay_token_hash" character(64) NOT NULL, "product_id" integer NOT NULL, "plan_id" integer, "customer_id" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "currency" character(3) NOT NULL, "original_amount" numeric(12,2) NOT NULL, "discount_amount" numeric(12,2) NOT NULL DEFAULT '0', "amount" numeric(12,2) NOT NULL, "discount_id" integer, "coupon_code" character varying, "affiliate_id" integer, "commission_amount" numeric(12,2), "transaction_id" character varying, "payment_method" character varying, "payment_number" character varying, "return_url" character varying, "cancel_url" character varying, "tracking" jsonb NOT NULL DEFAULT '{}', "approved_at" TIMESTAMP WITH TIME ZONE, "cancelled_at" TIMESTAMP WITH TIME ZONE, "refunded_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_75eba1c6b1a66b09f2a97e6927" ON "orders"  ("order_number") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_7eed665954006c78479c36c2ac" ON "orders"  ("pay_token_hash") `);
    await queryRunner.query(`CREATE INDEX "IDX_ac832121b6c331b084ecc4121f" ON "orders"  ("product_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_555d48c77395dc43554c7067ed" ON "orders"  ("discount_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_6a895a83bb594d553632e64155" ON "orders"  ("plan_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_11fefa35e3ef25881234b8b89a" ON "orders"  ("customer_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_83372b980bc48e8deb7707cd07" ON "orders"  ("store_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "plans" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "product_id" integer NOT NULL, "plan_id" character varying NOT NULL, "name" character varying NOT NULL, "price" numeric(12,2) NOT NULL, "interval" character varying(8) NOT NULL, "interval_count" integer NOT NULL DEFAULT '1', CONSTRAINT "PK_3720521a81c7c24fe9b7202ba61" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_109c61b56264185e8693f4c430" ON "plans"  ("store_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_d69ef64a2077d2159f98e9f6df" ON "plans"  ("product_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_084714de33798c5b96f12725f7" ON "plans"  ("plan_id") `);
    await queryRunner.query(`CREATE TABLE "products" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "id" SERIAL NOT NULL, "store_id" integer NOT NULL, "pid" character varying NOT NULL, "name" character varying NOT NULL, "type" character varying(16) NOT NULL DEFAULT 'one_time', "price" numeric(12,2), "description" text, "sale_page_url" character varying, "image_url" character varying, "category" character varying, "subcategory" character varying, "contact_number" character varying, "status_2" character varying(16) NOT NULL DEFAULT 'draft', CONSTRAINT "PK_0806c755e0aca124e67c0cf6d7d" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_7311085e7abaaedf39f5019c35" ON "products"  ("pid") `);
    await queryRunner.query(`CREATE INDEX "IDX_01bd96eeac93dcdf7cdd90345f" ON "products"  ("store_id", "created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_01bd96eeac93dcdf7cdd90345f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7311085e7abaaedf39f5019c35"`);
    await queryRunner.query(`DROP TABLE "products"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_084714de33798c5b96f12725f7"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d69ef64a2077d2159f98e9f6df"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_109c61b56264185e8693f4c430"`);
    await queryRunner.query(`DROP TABLE "plans"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_83372b980bc48e8deb7707cd07"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_11fefa35e3ef25881234b8b89a"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6a895a83bb594d553632e64155"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_555d48c77395dc43554c7067ed"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ac832121b6c331b084ecc4121f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7eed665954006c78479c36c2ac"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_75eba1c6b1a66b09f2a97e6927"`);
    await queryRunner.query(`DROP TABLE "orders"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c3a5f384b9afa58806752ada0b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2ac8912bd0df8d4d7f503c251d"`);
    await queryRunner.query(`DROP TABLE "order_bumps"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d9255037ce324122b28cfaa548"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_59ac1d733e20dd1b96dc189e1e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_74cd92744d47a39764faffaf9e"`);
    await queryRunner.query(`DROP TABLE "product_files"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d59105f9b01dae781fde69723a"`);
    await queryRunner.query(`DROP TABLE "order_bump_items"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e45fca5d912c3a2fab512ac25d"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6bdf99a2aee06482f33465a70e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ccfc7ea837d795c87eef10bf51"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_28dcba930ec4f05d6c98648520"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5461cff9c015eebd7d4fa1173c"`);
    await queryRunner.query(`DROP TABLE "customers"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3ac3d3100b672ff28b91e3cfab"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_dfbc07f358e0ebaca9dc5e930e"`);
    await queryRunner.query(`DROP TABLE "discounts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_55b189eec3a96438c36537255d"`);
    await queryRunner.query(`DROP TABLE "affiliates"`);
  }
}
