import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderProcess } from '../billing';
import { AffiliatesService } from './affiliates.service';
import { commissionFor } from './commission';

/**
 * An approved order referred by an affiliate earns the affiliate's commission, at the percentage
 * the affiliate has at the approval; an affiliate deleted since leaves none.
 */
@Injectable()
export class AffiliateCommissionHook implements OnModuleInit {
  constructor(
    private readonly process: OrderProcess,
    private readonly affiliates: AffiliatesService,
  ) {}

  onModuleInit(): void {
    this.process.register({
      name: 'affiliates.commission',
      to: ['approved'],
      beforeSave: async ({ manager, order }) => {
        if (order.affiliateId === null) return;
        const affiliate = await this.affiliates.find(order.storeId, order.affiliateId, manager);
        order.commissionAmount = affiliate ? commissionFor(order.amount, affiliate.commissionPercent) : null;
      },
    });
  }
}
