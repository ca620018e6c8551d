import { MigrationInterface, QueryRunner } from 'typeorm';

export class OperatorsAndReviewReason1795721000259 implements MigrationInterface {
  name = 'OperatorsAndReviewReason1795721000259';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "products" ADD "review_reason" text`);
    await queryRunner.query(`ALTER TABLE "sellers" ADD "operator" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE INDEX "products_pending_review_idx" ON "products"  ("updated_at", "id") WHERE "status_2" = 'pending'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."products_pending_review_idx"`);
    await queryRunner.query(`ALTER TABLE "sellers" DROP COLUMN "operator"`);
    await queryRunner.query(`ALTER TABLE "products" DROP COLUMN "review_reason"`);
  }
}
