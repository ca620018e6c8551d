import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/app-error';
import { Cents } from '../../../common/money';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { CatalogReads, type Plan, type Product } from '../../catalog';
import { SellersService } from '../../identity';
import type { Store } from '../../identity';
import { bumpsTotal, portalUrl, UTM_KEYS } from '../events/order-event-payload';
import type { OrderBumpItem } from '../orders/order-bump-item.entity';
import type { Order } from '../orders/order.entity';
import { OrdersRepository } from '../orders/orders.repository';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service';
import type { PaymentMode } from '../payments/payment-gateway.registry';
import { PayRequest } from '../payments/payments.service';
import type { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionLifecycle } from '../subscriptions/subscription-lifecycle.service';
import { isEnded, SubscriptionsService } from '../subscriptions/subscriptions.service';
import { OrdersService } from '../orders/orders.service';
import { CustomersService } from '../customers/customers.service';
import { DownloadsService } from '../downloads/downloads.service';
import { LicensesService, LicenseView } from '../licenses/licenses.service';

export interface CheckoutPage {
  order: Order;
  store: Store;
  product: Product;
  plan: Plan | null;
  /** The order without add-ons: what the product costs before the discount. */
  baseAmount: Cents;
  bumps: Array<{ id: number; name: string; price: Cents; checked: boolean }>;
}

export interface PortalPage {
  order: Order;
  store: Store;
  product: Product;
  plan: Plan | null;
  subscription: Subscription | null;
  /** The subscription's renewal order waiting for payment, if any. */
  renewal: Order | null;
  bumps: OrderBumpItem[];
  downloads: Array<{ name: string; url: string }>;
  /** Where the receipt went, masked (`a***@example.com`); null when the store sends no emails. */
  receiptTo: string | null;
  /** the order's license keys (a renewal's: its subscription's). */
  licenseKeys: LicenseView[];
}

/** `ana@example.com` → `a***@example.com`: enough for the buyer to recognise, not to read. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export type PayForm =
  { attempt: PayRequest; errors?: undefined } | { attempt?: undefined; errors: Record<string, string[]> };

/* ---- payments: how the checkout names the methods the gateways offer (README, *Taking payments*) ---- */
const METHOD_LABELS: Record<string, string> = { mpesa: 'M-Pesa', emola: 'e-Mola', card: 'Card' };

export interface PaymentChoices {
  methods: Array<{ value: string; label: string; needsPaymentNumber: boolean }>;
  /** The sandbox takes payments: "Test payment: no money moves". */
  testMode: boolean;
}
/* ---- end payments ---- */

/** What the customer's pages show, and reading their forms (README, *Taking payments*). */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly payments: CheckoutPaymentsService,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly sellers: SellersService,
    private readonly subscriptions: SubscriptionsService,
    private readonly lifecycle: SubscriptionLifecycle,
    private readonly ordersService: OrdersService,
    private readonly customers: CustomersService,
    private readonly downloads: DownloadsService,
    private readonly licenses: LicensesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get payUrl(): string {
    return this.config.urls.pay;
  }

  checkoutUrl(payToken: string): string {
    return `${this.payUrl}/token/${encodeURIComponent(payToken)}`;
  }

  /** The route the waiting page polls (README, *Taking payments*), also where a hosted payment page returns. */
  statusUrl(payToken: string): string {
    return `${this.checkoutUrl(payToken)}/status`;
  }

  /** The payment methods offered now for `order` (test mode: the sandbox's), in the checkout's order. */
  async paymentChoices(order: Pick<Order, 'storeId'>): Promise<PaymentChoices> {
    const mode = await this.payments.modeOf(order);
    return {
      methods: this.payments.offeredMethods(mode).map((m) => ({
        value: m.method,
        label: METHOD_LABELS[m.method] ?? m.method,
        needsPaymentNumber: m.needsPaymentNumber,
      })),
      testMode: this.payments.isTestMode(mode),
    };
  }

  portalUrl(order: Order): string {
    return portalUrl(this.payUrl, order.orderNumber, order.transactionId);
  }

  /** Where a browser lands right after paying (no `return_url`): the portal with its thank-you. */
  thankYouUrl(order: Order): string {
    return `${this.portalUrl(order)}&thanks=1`;
  }

  /**
   * The checkout page. `utm_*` of the link are kept on a pending order's tracking (README, *Taking payments*):
   * campaign attribution only, never the order's state, amounts or token.
   */
  async page(payToken: string, query: Record<string, unknown>): Promise<CheckoutPage> {
    const order = await this.payments.orderOfToken(payToken);
    const utm = Object.fromEntries(
      UTM_KEYS.flatMap((key) => {
        const value = query[key];
        return typeof value === 'string' && value !== '' ? [[key, value.slice(0, 255)]] : [];
      }),
    );
    if (order.status === 'pending' && Object.keys(utm).length) {
      await this.orders.mergeTracking(order.id, utm);
      order.tracking = { ...order.tracking, ...utm };
    }
    return this.pageOf(order);
  }

  async pageOf(order: Order): Promise<CheckoutPage> {
    const [store, product, plan, offered, items] = await Promise.all([
      this.sellers.findStore(order.storeId),
      this.catalog.findProduct(order.productId),
      order.planId !== null ? this.catalog.findPlan(order.planId) : null,
      this.catalog.findBumpsOffered(order.storeId, order.productId),
      this.orders.bumpItemsOf(order.id),
    ]);
    if (!store || !product) throw new NotFoundError();
    const chosen = new Set(items.map((i) => i.productId));
    return {
      order,
      store,
      product,
      plan,
      baseAmount: order.originalAmount - bumpsTotal(items),
      bumps: offered.map(({ bump, product: p }) => ({
        id: bump.id,
        name: p.name,
        price: bump.price,
        checked: chosen.has(p.id),
      })),
    };
  }

  /**
   * Reads the pay form (urlencoded or JSON); errors are keyed by field like any 422. A missing field
   * is `<field> is required.`; its other rules are reported only when it is given (README,
   * *Taking payments*).
   */
  readPayForm(body: Record<string, unknown>, mode: PaymentMode): PayForm {
    const errors: Record<string, string[]> = {};
    const given = (value: unknown) => value !== undefined && value !== null && value !== '';
    const method = body.payment_method;
    const offered = this.payments.offeredMethods(mode);
    const chosen = offered.find((m) => m.method === method);
    if (!offered.length) errors.payment_method = ['No payment method is available.'];
    else if (!given(method)) errors.payment_method = ['payment_method is required.'];
    else if (!chosen)
      errors.payment_method = [`payment_method must be one of: ${offered.map((m) => m.method).join(', ')}.`];
    const number =
      typeof body.payment_number === 'string' ? body.payment_number.replace(/[\s-]/g, '') : body.payment_number;
    const numberGiven = given(number);
    // Required when the chosen method needs it (or, no method chosen, when every offered one does).
    const numberNeeded = chosen ? chosen.needsPaymentNumber : offered.every((m) => m.needsPaymentNumber);
    if (!numberGiven && numberNeeded) errors.payment_number = ['payment_number is required.'];
    else if (numberGiven) {
      // The chosen method's gateway says what a number is (a phone number unless it has its own rule).
      const refused = this.payments.paymentNumberError(
        chosen?.method ?? null,
        typeof number === 'string' ? number : null,
        mode,
      );
      if (refused) errors.payment_number = [refused];
    }
    const raw = body.bumps === undefined || body.bumps === null || body.bumps === '' ? [] : [body.bumps].flat();
    const bumpIds = raw.map((v) =>
      typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN,
    );
    if (bumpIds.some((id) => !Number.isInteger(id))) errors.bumps = ['bumps must be a list of order bump ids.'];
    if (Object.keys(errors).length) return { errors };
    return { attempt: { method: method as string, paymentNumber: numberGiven ? (number as string) : null, bumpIds } };
  }

  /** The order portal: a wrong or missing `transaction_id` looks exactly like an unknown order. */
  async portal(orderNumber: string, transactionId: unknown): Promise<PortalPage> {
    const order = await this.orderOfPortal(orderNumber, transactionId);
    const [store, product, plan, subscription, bumps, customer] = await Promise.all([
      this.sellers.findStore(order.storeId),
      this.catalog.findProduct(order.productId),
      order.planId !== null ? this.catalog.findPlan(order.planId) : null,
      this.subscriptions.findOfOrder(order),
      this.orders.bumpItemsOf(order.id),
      this.customers.findOfOrder(order),
    ]);
    if (!store || !product) throw new NotFoundError();
    const renewal = subscription && !isEnded(subscription) ? await this.subscriptions.openRenewal(subscription) : null;
    // fresh signed links each time the portal is opened, never the `{cdn_url}` address.
    const downloads = await this.downloads.linksFor(order);
    const licenseKeys =
      order.status === 'approved' || order.status === 'refunded' ? await this.licenses.viewsOfOrder(order) : [];
    return {
      order,
      store,
      product,
      plan,
      subscription,
      renewal,
      bumps,
      downloads,
      licenseKeys,
      receiptTo: store.emailCustomers && customer ? maskedEmail(customer.email) : null,
    };
  }

  /**
   * The portal's cancel button (billing README, `subscriptions/`): cancels the order's subscription at the end of the
   * paid period; pressed again, or on a subscription that already ended, it changes nothing.
   */
  async cancelSubscription(orderNumber: string, transactionId: unknown): Promise<Order> {
    const order = await this.orderOfPortal(orderNumber, transactionId);
    const subscription = await this.subscriptions.findOfOrder(order);
    if (subscription && !isEnded(subscription)) await this.lifecycle.cancel(order.storeId, subscription.id, true);
    return order;
  }

  /**
   * The portal's "Pay the renewal" button: the checkout link of the subscription's open renewal
   * order, the same one its emails carry (`OrdersService.checkoutUrlFor`). Null when none is open.
   */
  async renewalCheckoutUrl(orderNumber: string, transactionId: unknown): Promise<string | null> {
    const order = await this.orderOfPortal(orderNumber, transactionId);
    const subscription = await this.subscriptions.findOfOrder(order);
    const renewal = subscription && !isEnded(subscription) ? await this.subscriptions.openRenewal(subscription) : null;
    return renewal ? this.ordersService.checkoutUrlFor(renewal.id) : null;
  }

  private async orderOfPortal(orderNumber: string, transactionId: unknown): Promise<Order> {
    const order = await this.orders.findByOrderNumber(orderNumber);
    if (!order || !order.transactionId || typeof transactionId !== 'string' || transactionId !== order.transactionId) {
      throw new NotFoundError();
    }
    return order;
  }
}
