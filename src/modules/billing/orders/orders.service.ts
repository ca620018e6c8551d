import { Inject, Injectable } from '@nestjs/common';
import { CatalogReads } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { keyedBase62, randomBase62, sha256Hex } from '../../../common/crypto';
import { ConflictError, NotFoundError } from '../../../common/errors/app-error';
import { PageRequest } from '../../../common/pagination/pagination';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { CustomersRepository } from '../customers/customers.repository';
import { PaymentsService } from '../payments/payments.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderView } from './order.mapper';
import { Order } from './order.entity';
import { OrderTransitionsService } from './order-transitions.service';
import { OrderFilters, OrdersRepository } from './orders.repository';
import { OrderFactory, OrderingStore } from './order-factory';

export interface CheckoutSession {
  order: Pick<Order, 'id' | 'orderNumber'>;
  /** Shown once; only its SHA-256 is stored. */
  payToken: string;
  checkoutUrl: string;
  reused: boolean;
}

/** 32 base62 characters: about 190 random bits (the contract asks for 128+). */
export const newPayToken = (): string => randomBase62(32);

/** Orders as the seller's API sees them: checkout sessions, reads and refunds. */
@Injectable()
export class OrdersService {
  /** The key of the links `checkoutUrlFor` hands out. */
  private readonly linkKey: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly customers: CustomersRepository,
    private readonly subscriptions: SubscriptionsService,
    private readonly transitions: OrderTransitionsService,
    private readonly payments: PaymentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly factory: OrderFactory,
  ) {
    // From SESSION_SECRET, which every instance shares (README); without it, a key of this process's
    // own, and a link handed out before a restart is replaced at the next one handed out.
    this.linkKey = createHash('sha256')
      .update(`checkout-links\0${config.sessionSecret ?? randomBytes(32).toString('hex')}`)
      .digest();
  }

  /** `POST /v1/orders` (OpenAPI description): a new checkout session, or the reuse of `from_order`. */
  async create(store: OrderingStore, input: CreateOrderDto): Promise<CheckoutSession> {
    if (input.from_order) {
      await this.factory.checkReferences(store.id, input);
      return this.reuse(store.id, input.from_order);
    }
    const payToken = newPayToken();
    const order = await this.factory.checkout(store, input, payToken);
    return { order, payToken, checkoutUrl: this.checkoutUrl(payToken), reused: false };
  }

  /**
   * `from_order`: the store's pending or cancelled order comes back unchanged as pending with a
   * fresh pay_token (the old one stops working). Approved and refunded orders are sales: 409.
   */
  private reuse(storeId: number, ref: string): Promise<CheckoutSession> {
    const payToken = newPayToken();
    return this.dataSource.transaction(async (manager) => {
      const found = await this.orders.findOfStore(storeId, ref, manager);
      if (!found) throw new NotFoundError('Order not found.');
      let order = (await this.orders.lockById(manager, found.id))!;
      if (order.status === 'approved' || order.status === 'refunded')
        throw new ConflictError('Order cannot be reused.');
      // A renewal order is cancelled only with its subscription's end (billing README, `subscriptions/`): it stays closed.
      if (order.status === 'cancelled' && order.subscriptionId !== null)
        throw new ConflictError('Order cannot be reused.');
      if (order.status === 'cancelled') order = (await this.transitions.transition(order.id, 'pending', {}, manager))!;
      await this.orders.setPayTokenHash(manager, order.id, sha256Hex(payToken));
      return { order, payToken, checkoutUrl: this.checkoutUrl(payToken), reused: true };
    });
  }

  /**
   * The checkout link of a pending order that the store hands out itself (a renewal's, in the
   * customer's emails and behind the portal's "Pay the renewal" button). It is the same link every
   * time: its pay_token is derived from the order number with the server's key, so a dunning email
   * sent after the customer pressed the button, or a second email, does not break a link already
   * given out, as an invoice link stays the same until it is paid. The database still holds only
   * its hash. The first such link replaces the one the order was created with (the sweep keeps no
   * plaintext of it), and so does a link `from_order` gave out. Null when the order is no longer
   * pending (paid, or cancelled with its subscription): there is nothing to pay.
   */
  async checkoutUrlFor(orderId: number): Promise<string | null> {
    const order = await this.orders.findById(orderId);
    if (!order || order.status !== 'pending') return null;
    const payToken = keyedBase62(this.linkKey, `checkout:${order.orderNumber}`);
    const payTokenHash = sha256Hex(payToken);
    if (order.payTokenHash !== payTokenHash) {
      const set = await this.dataSource.transaction(async (manager) => {
        const locked = await this.orders.lockById(manager, orderId);
        if (!locked || locked.status !== 'pending') return false;
        await this.orders.setPayTokenHash(manager, locked.id, payTokenHash);
        return true;
      });
      if (!set) return null;
    }
    return this.checkoutUrl(payToken);
  }

  async list(
    storeId: number,
    filters: Omit<OrderFilters, 'productIds'> & { product?: string },
    page: PageRequest,
  ): Promise<[OrderView[], number]> {
    const { product, ...rest } = filters;
    const productIds = product === undefined ? undefined : await this.catalog.productIdsByRef(storeId, product);
    const [orders, total] = await this.orders.listOfStore(storeId, { ...rest, productIds }, page);
    return [await this.views(orders), total];
  }

  async get(storeId: number, ref: string): Promise<OrderView> {
    const view = await this.viewOf(storeId, ref);
    if (!view) throw new NotFoundError();
    return view;
  }

  /**
   * `POST /v1/orders/{id}/refund` (README, *Choices where the contract is silent*; README, *Taking payments*): approved → refunded through the gateway that
   * took the payment, sending `order_refund`; the gateway's refusal is a 502 and changes nothing.
   */
  async refund(storeId: number, ref: string): Promise<OrderView> {
    const order = await this.orders.findOfStore(storeId, ref);
    if (!order) throw new NotFoundError();
    if (order.status !== 'approved') throw new ConflictError('Only approved orders can be refunded.');
    const refunded = await this.payments.refund(order);
    if (!refunded) throw new ConflictError('Only approved orders can be refunded.');
    // The same ref resolves to the same order: shown as GET shows it, with its payments.
    const view = await this.viewOf(storeId, ref);
    if (!view) throw new NotFoundError();
    return view;
  }

  /** The order's view: billing's rows in one query, then its product and plan from the catalog. */
  private async viewOf(storeId: number, ref: string): Promise<OrderView | null> {
    const found = await this.orders.findViewOfStore(storeId, ref);
    if (!found) return null;
    const { productId, planId, ...view } = found;
    return { ...view, ...(await this.catalog.productAndPlan(productId, planId)) };
  }

  /** Loads what the representations of these orders show, in a fixed number of queries. */
  async views(orders: Order[], manager?: EntityManager): Promise<OrderView[]> {
    const ids = orders.map((o) => o.id);
    const [products, plans, customers, subscriptions, bumps] = await Promise.all([
      this.catalog.findProducts(
        orders.map((o) => o.productId),
        manager,
      ),
      this.catalog.findPlans(
        orders.flatMap((o) => (o.planId === null ? [] : [o.planId])),
        manager,
      ),
      this.customers.findByIds(
        orders.map((o) => o.customerId),
        manager,
      ),
      this.subscriptions.findByIds(orders.flatMap((o) => (o.subscriptionId === null ? [] : [o.subscriptionId]))),
      this.orders.bumpItemsOfOrders(ids),
    ]);
    return orders.map((order) => ({
      order,
      product: products.get(order.productId) ?? null,
      plan: order.planId === null ? null : (plans.get(order.planId) ?? null),
      customer: customers.get(order.customerId)!,
      subscription: order.subscriptionId === null ? null : (subscriptions.get(order.subscriptionId) ?? null),
      bumps: bumps.get(order.id) ?? [],
    }));
  }

  checkoutUrl(payToken: string): string {
    return `${this.config.urls.pay}/token/${payToken}`;
  }
}
