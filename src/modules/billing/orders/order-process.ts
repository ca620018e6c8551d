import { Global, Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { OrderStatus } from './order-status';
import type { OrderBumpItem } from './order-bump-item.entity';
import type { Order } from './order.entity';

/** One change of an order's state, as its hooks see it, inside the transaction that makes it. */
export interface OrderTransition {
  readonly manager: EntityManager;
  /** The order, locked, with its new `status` and the change's own fields (`approved_at`, …) set. */
  readonly order: Order;
  readonly from: OrderStatus;
  readonly to: OrderStatus;
  /** The clock of the change. */
  readonly at: Date;
  /** The order's bump items, read once for all hooks (or known already to the caller). */
  bumps(): Promise<OrderBumpItem[]>;
}

/**
 * A module's reaction to order transitions: it runs inside the transaction of the change, after the
 * state table allowed it, and its error rolls the change back. `beforeSave` may set fields of the
 * order (a commission, the subscription it starts); `afterSave` changes other aggregates once the
 * order row is written (and before the transition's domain event is published).
 *
 * Orders that change together in one transaction (a group of payments, `transitionAllLocked`)
 * take each step together: every order's `beforeSave`, one UPDATE, every order's `afterSave`. A
 * hook reacts to its own order: it must not read another order's row, which may be written only
 * after the hook ran.
 */
export interface OrderTransitionHook {
  /** Who reacts (logs, and the order hooks run in: registration order). */
  readonly name: string;
  /** The target states it reacts to; `from` narrows to changes out of these states. */
  readonly to: readonly OrderStatus[];
  readonly from?: readonly OrderStatus[];
  beforeSave?(transition: OrderTransition): Promise<void>;
  afterSave?(transition: OrderTransition): Promise<void>;
}

/**
 * The hooks of the order state machine (as an order process in Vendure): modules that react to a
 * transition (subscriptions, affiliates, discounts) register here from `onModuleInit`, and
 * `OrderTransitionsService`, the one place an order changes state, runs them without knowing any
 * of them. Notifications and webhooks react to the transition's domain event instead (after commit,
 * and the outbox).
 */
@Injectable()
export class OrderProcess {
  private readonly hooks: OrderTransitionHook[] = [];

  register(hook: OrderTransitionHook): void {
    if (this.hooks.some((h) => h.name === hook.name)) throw new Error(`Order hook ${hook.name} is registered twice.`);
    this.hooks.push(hook);
  }

  async beforeSave(transition: OrderTransition): Promise<void> {
    for (const hook of this.matching(transition)) await hook.beforeSave?.(transition);
  }

  async afterSave(transition: OrderTransition): Promise<void> {
    for (const hook of this.matching(transition)) await hook.afterSave?.(transition);
  }

  private matching({ from, to }: OrderTransition): OrderTransitionHook[] {
    return this.hooks.filter((h) => h.to.includes(to) && (!h.from || h.from.includes(from)));
  }
}

/** Global, so that the modules billing itself imports (discounts, affiliates) can register hooks. */
@Global()
@Module({ providers: [OrderProcess], exports: [OrderProcess] })
export class OrderProcessModule {}
