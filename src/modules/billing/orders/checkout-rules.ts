import { Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Cents } from '../../../common/money';
import { Contributions, ExtensionPoint } from '../../../common/plugins/contributions';

/** A new order as the checkout is about to create it: what a checkout rule judges. */
export interface CheckoutCandidate {
  storeId: number;
  productPid: string;
  planId: string | null;
  /** Before any discount. */
  amount: Cents;
  couponCode: string | null;
  affiliateId: number | null;
  customer: { email: string; name: string; mobileNumber: string };
  /** Read through it: the rule's reads see what the order's creation sees. */
  manager: EntityManager;
}

/**
 * A rule a plugin adds to the creation of orders (`POST /v1/orders`, not the reuse of `from_order`):
 * it throws to refuse the order, before anything is written. Throw the API's errors
 * (`ValidationError.field('customer.email', '…')` answers 422 in the validation shape).
 */
export interface CheckoutRule {
  /** Names the rule in logs and start-up errors. */
  readonly name: string;
  check(candidate: CheckoutCandidate): Promise<void>;
}

/** Where the checkout rules of plugins (`definePlugin({ checkoutRules })`) are collected. */
export const CHECKOUT_RULES = new ExtensionPoint<CheckoutRule>('checkout rules');

/** The plugins' checkout rules, run in the order of the plugins. */
@Injectable()
export class CheckoutRules {
  private readonly rules: CheckoutRule[];

  constructor(@Optional() contributions?: Contributions) {
    this.rules = contributions?.of(CHECKOUT_RULES) ?? [];
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** Resolves when every rule accepts `candidate`; rejects with the first refusal. */
  async check(candidate: CheckoutCandidate): Promise<void> {
    for (const rule of this.rules) await rule.check(candidate);
  }
}
