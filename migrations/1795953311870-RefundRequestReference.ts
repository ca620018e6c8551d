import { MigrationInterface, QueryRunner } from 'typeorm';

export class RefundRequestReference1795953311870 implements MigrationInterface {
  name = 'RefundRequestReference1795953311870';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_attempts" ADD "refund_request_reference" character varying(64)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_attempts" DROP COLUMN "refund_request_reference"`);
  }
}
