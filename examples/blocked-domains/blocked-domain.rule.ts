import { Injectable } from '@nestjs/common';
import { type CheckoutCandidate, type CheckoutRule, ValidationError } from '../../src/plugins';
import { BlockedDomainsRepository } from './blocked-domains.repository';

export const BLOCKED_DOMAIN_MESSAGE = 'Orders from this email domain are not accepted.';

/**
 * A checkout rule: a new order whose customer email is at a domain the store blocked is refused
 * with 422 on `customer.email`, and nothing is written. Reads the plugin's own table, in the
 * transaction that would create the order.
 */
@Injectable()
export class BlockedDomainRule implements CheckoutRule {
  readonly name = 'blocked-email-domain';

  constructor(private readonly domains: BlockedDomainsRepository) {}

  async check(checkout: CheckoutCandidate): Promise<void> {
    const domain = checkout.customer.email.slice(checkout.customer.email.lastIndexOf('@') + 1).toLowerCase();
    if (await this.domains.isBlocked(checkout.storeId, domain, checkout.manager))
      throw ValidationError.field('customer.email', BLOCKED_DOMAIN_MESSAGE);
  }
}
