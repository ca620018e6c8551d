import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { isStorableText } from '../../../common/http/input-text';
import { Cents, centsToNumber, toCents } from '../../../common/money';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { CatalogReads, type Plan, type Product } from '../../catalog';
import { SellersService, type Store, validateForm } from '../../identity';
import { UTM_KEYS } from '../events/order-event-payload';
import { CreateOrderDto, MIN_ORDER_AMOUNT } from '../orders/dto/create-order.dto';
import { OrdersService } from '../orders/orders.service';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service';
import { buyLinkUrl } from './buy-link-url';

/** A product a buy link sells, with what its page shows. */
export interface BuyPage {
  store: Store;
  product: Product;
  /** A recurring product's plans, cheapest first; none for a one-time product. */
  plans: Plan[];
  /** What the buyer pays before a coupon: the product's price, or the cheapest plan's "from" price. */
  price: Cents;
  /** The store's test side: its checkout takes sandbox payments only. */
  testMode: boolean;
}

/** The buy form as the buyer filled it in, shown again beside its errors. */
export interface BuyForm {
  name: string;
  email: string;
  mobile_number: string;
  plan_id: string;
  coupon_code: string;
  /** The link's `utm_*` parameters, carried to the order's `tracking`. */
  tracking: Partial<Record<(typeof UTM_KEYS)[number], string>>;
}

export type BuyResult =
  { checkoutUrl: string; errors?: undefined } | { checkoutUrl?: undefined; errors: Record<string, string[]> };

/** Text of a form or a link, trimmed; anything else (a list, a value no store could hold) is nothing. */
const text = (value: unknown): string => (typeof value === 'string' && isStorableText(value) ? value.trim() : '');

const MIN_ORDER_CENTS = toCents(MIN_ORDER_AMOUNT);

/**
 * Buy links (README, *Buy links*): `{pay_url}/buy/{product_pid}`, a page anyone may open that asks
 * the buyer's details and then opens the hosted checkout. The order is made exactly as
 * `POST /v1/orders` makes it (same DTO, same rules, same service), in the product's store.
 */
@Injectable()
export class BuyLinks {
  constructor(
    private readonly catalog: CatalogReads,
    private readonly sellers: SellersService,
    private readonly payments: CheckoutPaymentsService,
    private readonly orders: OrdersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  url(pid: string): string {
    return buyLinkUrl(this.config.urls.pay, pid);
  }

  /**
   * What the link of `pid` sells, or 404: an unknown product, a live product not approved by review,
   * or one with nothing an order can be made for (no price, or one under the order minimum; a
   * recurring product without such a plan). A test store's products sell through their links at
   * once, so the seller can try the link before review.
   */
  async page(pid: string): Promise<BuyPage> {
    const product = isStorableText(pid) ? await this.catalog.findProductByPid(pid) : null;
    const store = product && (await this.sellers.findStore(product.storeId));
    if (!product || !store) throw new NotFoundError('Product not found.');
    const testMode = store.liveStoreId !== null;
    if (!testMode && product.reviewStatus !== 'approved') throw new NotFoundError('Product not found.');
    const orderable = (price: Cents | null): price is Cents => price !== null && price >= MIN_ORDER_CENTS;
    const plans =
      product.type === 'recurring'
        ? (await this.catalog.findPlansOfProduct(store.id, product.id)).filter((plan) => orderable(plan.price))
        : [];
    const price = product.type === 'recurring' ? (plans[0]?.price ?? null) : product.price;
    if (!orderable(price)) throw new NotFoundError('Product not found.');
    // The sandbox's notice follows the payments the checkout will offer, as on the checkout page.
    const mode = await this.payments.modeOf({ storeId: store.id });
    return { store, product, plans, price, testMode: this.payments.isTestMode(mode) };
  }

  /** The form of a page just opened: the plan preselected, a coupon and campaign from the link's query. */
  emptyForm(page: BuyPage, query: Record<string, unknown>): BuyForm {
    const asked = text(query.plan);
    return {
      name: '',
      email: '',
      mobile_number: '',
      plan_id: page.plans.find((plan) => plan.planId === asked)?.planId ?? page.plans[0]?.planId ?? '',
      coupon_code: text(query.coupon),
      tracking: this.trackingOf(query),
    };
  }

  /** The submitted form, read leniently: anything not text is left empty. */
  readForm(body: Record<string, unknown>): BuyForm {
    return {
      name: text(body.name),
      email: text(body.email),
      // As people write it (+258 84 123 4567, +258-84-…): spaces, hyphens and brackets are not part of it.
      mobile_number: text(body.mobile_number).replace(/[\s\-()]/g, ''),
      plan_id: text(body.plan_id),
      coupon_code: text(body.coupon_code),
      tracking: this.trackingOf(body),
    };
  }

  /**
   * The checkout session of the form, or the errors by form field (the API's messages). An empty
   * box is a missing field; a coupon, plan or store rule refused is its field's error.
   */
  async buy(page: BuyPage, form: BuyForm): Promise<BuyResult> {
    const plan = page.plans.find((p) => p.planId === form.plan_id) ?? null;
    if (page.plans.length && !plan) return { errors: { plan_id: ['plan_id is required.'] } };
    const customer = Object.fromEntries(
      (['name', 'email', 'mobile_number'] as const).filter((key) => form[key] !== '').map((key) => [key, form[key]]),
    );
    const input: Record<string, unknown> = {
      amount: centsToNumber(plan?.price ?? page.price),
      product_pid: page.product.pid,
      customer,
      ...(plan ? { plan_id: plan.planId } : {}),
      ...(form.coupon_code ? { coupon_code: form.coupon_code } : {}),
      ...(Object.keys(form.tracking).length ? { tracking: form.tracking } : {}),
    };
    // The API's DTO and messages, as every dashboard form is checked.
    const checked = await validateForm(CreateOrderDto, input);
    if (checked.errors) return { errors: checked.errors };
    try {
      const session = await this.orders.create({ id: page.store.id, currency: page.store.currency }, checked.dto);
      return { checkoutUrl: session.checkoutUrl };
    } catch (error) {
      if (error instanceof ValidationError) return { errors: error.errors as Record<string, string[]> };
      throw error;
    }
  }

  private trackingOf(source: Record<string, unknown>): BuyForm['tracking'] {
    return Object.fromEntries(
      UTM_KEYS.flatMap((key) => {
        const value = text(source[key]);
        return value ? [[key, value.slice(0, 255)]] : [];
      }),
    );
  }
}
