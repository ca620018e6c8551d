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
import { isRenewalOrder, type Order } from '../orders/order.entity';
import { OrdersRepository } from '../orders/orders.repository';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service';
import type { PaymentMode } from '../payments/payment-gateway.registry';
import { PaymentResult, PayRequest } from '../payments/payments.service';
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
  /** The add-ons offered, each ticked as the buyer last chose (their form, else the order's last attempt). */
  bumps: Array<{ id: number; name: string; price: Cents; checked: boolean }>;
  /** The add-ons the order holds (what a paid order bought), as priced when chosen. */
  boughtBumps: OrderBumpItem[];
  /**
   * What the buyer pays: a pending order's price after the discount plus the add-ons ticked; once
   * the order has left `pending`, its amount. Integer cents, as shown.
   */
  total: Cents;
  /** A renewal order of a subscription (its second period on), not the order that started it. */
  renewal: boolean;
  /** A renewal's way to its subscription: the portal of the order that started it (null if none). */
  subscriptionPortalUrl: string | null;
  /**
   * The pay form as the buyer left it: the method chosen and the number typed. `submitted` false:
   * the page is not answering the form, so the first method offered is ticked.
   */
  choices: { submitted: boolean; method: string | null; paymentNumber: string };
}

/**
 * What the buyer submitted on the pay form, read leniently so the page can show it again after an
 * error: a field missing or of another type is no choice. `bumpIds` null: the form was not sent
 * (the order's own add-ons are ticked); an HTML form sends no `bumps` when none is ticked.
 */
export interface PayChoices {
  method: string | null;
  paymentNumber: string;
  bumpIds: number[] | null;
}

/** The 409 of the cancel button on a renewal, which stays open until its subscription ends (billing README, `checkout/`). */
export const RENEWAL_CANCEL_MESSAGE =
  'A renewal stays open until its subscription ends; cancel the subscription instead.';

/** `PaymentResult` of the cancel button, or `renewal`: a pending renewal, which the button does not cancel. */
export type CancelResult = PaymentResult | { outcome: 'renewal'; order: Order };

export interface PortalPage {
  order: Order;
  store: Store;
  product: Product;
  plan: Plan | null;
  subscription: Subscription | null;
  /** The subscription's renewal order waiting for payment, if any. */
  renewal: Order | null;
  /** That renewal's last payment was declined (on the automatic charge or at its checkout). */
  renewalDeclined: boolean;
  /** The product's line: the order without its add-ons, before the discount. */
  baseAmount: Cents;
  /** The add-ons of the order, each at the price it was bought for. */
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

  /** The checkout page of `order`, with the buyer's `choices` when the form is shown again. */
  async pageOf(order: Order, choices?: PayChoices): Promise<CheckoutPage> {
    const [store, product, plan, offered, items, subscriptionPortalUrl] = await Promise.all([
      this.sellers.findStore(order.storeId),
      this.catalog.findProduct(order.productId),
      order.planId !== null ? this.catalog.findPlan(order.planId) : null,
      this.catalog.findBumpsOffered(order.storeId, order.productId),
      this.orders.bumpItemsOf(order.id),
      isRenewalOrder(order) ? this.subscriptionPortalUrl(order) : null,
    ]);
    if (!store || !product) throw new NotFoundError();
    const chosen = new Set(items.map((i) => i.productId));
    const ticked = choices?.bumpIds ? new Set(choices.bumpIds) : null;
    const bumps = offered.map(({ bump, product: p }) => ({
      id: bump.id,
      name: p.name,
      price: bump.price,
      checked: ticked ? ticked.has(bump.id) : chosen.has(p.id),
    }));
    const baseAmount = order.originalAmount - bumpsTotal(items);
    // Bumps are chosen again on each attempt and the coupon applies to the product only (billing
    // README): what the buyer will pay is the discounted price plus the add-ons ticked now.
    const total =
      order.status === 'pending'
        ? baseAmount - order.discountAmount + bumpsTotal(bumps.filter((b) => b.checked))
        : order.amount;
    return {
      order,
      store,
      product,
      plan,
      baseAmount,
      bumps,
      boughtBumps: items,
      total,
      renewal: isRenewalOrder(order),
      subscriptionPortalUrl,
      choices: { submitted: !!choices, method: choices?.method ?? null, paymentNumber: choices?.paymentNumber ?? '' },
    };
  }

  /**
   * The pay form as submitted, for showing it again (`readPayForm` judges it): the method and the
   * number as typed, the add-ons ticked (ids that are not numbers are left out).
   */
  submittedChoices(body: Record<string, unknown>): PayChoices {
    return {
      method: typeof body.payment_method === 'string' ? body.payment_method : null,
      paymentNumber: typeof body.payment_number === 'string' ? body.payment_number : '',
      bumpIds: postedBumpIds(body).filter(Number.isInteger),
    };
  }

  /**
   * The customer's cancel button. A pending renewal is not cancelled (billing README, `checkout/`:
   * it stays pending until its subscription expires or is cancelled, so the customer can still pay
   * it): `renewal`, and nothing changes. Whether an order is a renewal is fixed when it is created,
   * so it is read without a lock; anything else is `CheckoutPaymentsService.cancel`.
   */
  async cancel(payToken: string): Promise<CancelResult> {
    const order = await this.payments.orderOfToken(payToken);
    if (order.status === 'pending' && isRenewalOrder(order)) return { outcome: 'renewal', order };
    return this.payments.cancel(payToken);
  }

  /** The portal of the order that started a renewal's subscription: where the customer manages it. */
  private async subscriptionPortalUrl(renewal: Order): Promise<string | null> {
    const subscription = await this.subscriptions.findOfOrder(renewal);
    const first = subscription ? await this.orders.findById(subscription.orderId) : null;
    return first?.transactionId ? this.portalUrl(first) : null;
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
    // A value of the wrong type gets only the type it must be (README, *Validation messages*).
    else if (typeof method !== 'string') errors.payment_method = ['payment_method must be a string.'];
    else if (!chosen)
      errors.payment_method = [`payment_method must be one of: ${offered.map((m) => m.method).join(', ')}.`];
    const number =
      typeof body.payment_number === 'string' ? body.payment_number.replace(/[\s-]/g, '') : body.payment_number;
    const numberGiven = given(number);
    // Required when the chosen method needs it (or, no method chosen, when every offered one does).
    const numberNeeded = chosen ? chosen.needsPaymentNumber : offered.every((m) => m.needsPaymentNumber);
    if (!numberGiven && numberNeeded) errors.payment_number = ['payment_number is required.'];
    else if (numberGiven && typeof number !== 'string') errors.payment_number = ['payment_number must be a string.'];
    else if (numberGiven) {
      // The chosen method's gateway says what a number is (a phone number unless it has its own rule).
      const refused = this.payments.paymentNumberError(
        chosen?.method ?? null,
        typeof number === 'string' ? number : null,
        mode,
      );
      if (refused) errors.payment_number = [refused];
    }
    const bumpIds = postedBumpIds(body);
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
    const [downloads, renewalDecline] = await Promise.all([
      this.downloads.linksFor(order),
      renewal ? this.payments.renewalDecline(renewal) : null,
    ]);
    const licenseKeys =
      order.status === 'approved' || order.status === 'refunded' ? await this.licenses.viewsOfOrder(order) : [];
    return {
      order,
      store,
      product,
      plan,
      subscription,
      renewal,
      renewalDeclined: renewalDecline !== null,
      baseAmount: order.originalAmount - bumpsTotal(bumps),
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
    const subscription = await this.subscriptionOfPortal(order);
    if (!isEnded(subscription)) await this.lifecycle.cancel(order.storeId, subscription.id, true);
    return order;
  }

  /**
   * The portal's "Pay the renewal" button: the checkout link of the subscription's open renewal
   * order, the same one its emails carry (`OrdersService.checkoutUrlFor`). Null when none is open.
   */
  async renewalCheckoutUrl(orderNumber: string, transactionId: unknown): Promise<string | null> {
    const order = await this.orderOfPortal(orderNumber, transactionId);
    const subscription = await this.subscriptionOfPortal(order);
    const renewal = !isEnded(subscription) ? await this.subscriptions.openRenewal(subscription) : null;
    return renewal ? this.ordersService.checkoutUrlFor(renewal.id) : null;
  }

  /** The subscription the portal's buttons act on; an order of none (a one-time purchase) has no such buttons: 404. */
  private async subscriptionOfPortal(order: Order): Promise<Subscription> {
    const subscription = await this.subscriptions.findOfOrder(order);
    if (!subscription) throw new NotFoundError('Subscription not found.');
    return subscription;
  }

  private async orderOfPortal(orderNumber: string, transactionId: unknown): Promise<Order> {
    const order = await this.orders.findByOrderNumber(orderNumber);
    if (!order || !order.transactionId || typeof transactionId !== 'string' || transactionId !== order.transactionId) {
      throw new NotFoundError();
    }
    return order;
  }
}

/**
 * The add-on ids a pay form posted (one value or a list; none when absent or empty), each a number,
 * or `NaN` for a value that is no id.
 */
function postedBumpIds(body: Record<string, unknown>): number[] {
  const raw = body.bumps === undefined || body.bumps === null || body.bumps === '' ? [] : [body.bumps].flat();
  return raw.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN));
}
