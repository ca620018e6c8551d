import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Cents, centsColumn } from '../../../common/money';

/** A bump the customer accepted at checkout, priced as offered at that moment. */
@Entity('order_bump_items')
export class OrderBumpItem {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  orderId: number;

  @Column()
  productId: number;

  @Column()
  productPid: string;

  @Column()
  name: string;

  @Column({ type: 'numeric', precision: 12, scale: 2, transformer: centsColumn })
  price: Cents;
}
