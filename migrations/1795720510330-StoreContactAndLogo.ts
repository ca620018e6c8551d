import { MigrationInterface, QueryRunner } from 'typeorm';

export class StoreContactAndLogo1795720510330 implements MigrationInterface {
  name = 'StoreContactAndLogo1795720510330';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stores" ADD "contact_number" character varying`);
    await queryRunner.query(`ALTER TABLE "stores" ADD "logo_url" character varying`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stores" DROP COLUMN "logo_url"`);
    await queryRunner.query(`ALTER TABLE "stores" DROP COLUMN "contact_number"`);
  }
}
