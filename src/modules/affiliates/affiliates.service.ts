import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotFoundError } from '../../common/errors/app-error';
import { parseIntId } from '../../common/http/path-id';
import { toCents } from '../../common/money';
import { PageRequest } from '../../common/pagination/pagination';
import { Affiliate } from './affiliate.entity';
import { AffiliatesRepository } from './affiliates.repository';

export interface NewAffiliate {
  name: string;
  email: string;
  /** Percent as a JSON number with at most two decimals (12.5 = 12.5%). */
  commissionPercent: number;
}

@Injectable()
export class AffiliatesService {
  constructor(private readonly affiliates: AffiliatesRepository) {}

  find(storeId: number, affiliateId: number, manager?: EntityManager): Promise<Affiliate | null> {
    return this.affiliates.findOfStore(storeId, affiliateId, manager);
  }

  /** The affiliate an order names, deleted since or not: its payloads say who referred it. */
  ofOrder(storeId: number, affiliateId: number, manager?: EntityManager): Promise<Affiliate | null> {
    return this.affiliates.findEvenDeleted(storeId, affiliateId, manager);
  }

  create(storeId: number, input: NewAffiliate): Promise<Affiliate> {
    return this.affiliates.create({
      storeId,
      name: input.name,
      email: input.email,
      // Hundredths of a percent, exact: 12.5 → 1250.
      commissionPercent: toCents(input.commissionPercent),
    });
  }

  list(storeId: number, page: PageRequest): Promise<[Affiliate[], number]> {
    return this.affiliates.listOfStore(storeId, page);
  }

  /** 404 `Resource not found.` for a missing id and for another store's. */
  async get(storeId: number, rawId: string): Promise<Affiliate> {
    const id = parseIntId(rawId);
    const affiliate = id === null ? null : await this.affiliates.findOfStore(storeId, id);
    if (!affiliate) throw new NotFoundError();
    return affiliate;
  }

  /**
   * Gone from the API and from new orders (422 for its `affiliate_id`); orders keep their
   * `affiliate_id` and computed commission, and their payloads still name it ({@link ofOrder}).
   */
  async remove(storeId: number, rawId: string): Promise<void> {
    const id = parseIntId(rawId);
    if (id === null || !(await this.affiliates.deleteOfStore(storeId, id))) throw new NotFoundError();
  }
}
