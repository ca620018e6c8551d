import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ValidationError } from '../../common/errors/app-error';
import { Affiliate } from './affiliate.entity';
import { AffiliatesRepository } from './affiliates.repository';

@Injectable()
export class AffiliatesService {
  constructor(private readonly affiliates: AffiliatesRepository) {}

  /** The store's affiliate for an order's `affiliate_id`; anything else is 422 (decisions §7). */
  async findForOrder(storeId: number, affiliateId: number, manager?: EntityManager): Promise<Affiliate> {
    const affiliate = await this.affiliates.findOfStore(storeId, affiliateId, manager);
    if (!affiliate) throw ValidationError.field('affiliate_id', 'Affiliate not found.');
    return affiliate;
  }

  find(storeId: number, affiliateId: number, manager?: EntityManager): Promise<Affiliate | null> {
    return this.affiliates.findOfStore(storeId, affiliateId, manager);
  }
}
