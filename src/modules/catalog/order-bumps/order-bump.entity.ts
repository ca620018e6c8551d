import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Cents, centsColumn } from '../../../common/money';

/** An add-on offered at checkout of `productId`: another product of the store at a set price. */
@Entity('order_bumps')
@Index(['productId', 'bumpProductId'], { unique: true })
export class OrderBump {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  @Column()
  productId: number;

  @Column()
  bumpProductId: number;

  @Column({ type: 'numeric', precision: 12, scale: 2, transformer: centsColumn })
  price: Cents;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
