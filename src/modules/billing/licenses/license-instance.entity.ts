import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An installation of the seller's software that activated a key (`instance_name` as it sent it). */
@Entity('license_instances')
export class LicenseInstance {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  licenseKeyId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
