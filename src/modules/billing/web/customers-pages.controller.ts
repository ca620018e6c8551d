import { Get, Param, Post, Req, Res } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { ConflictError, NotFoundError } from '../../../common/errors/app-error';
import { centsToNumber } from '../../../common/money';
import {
  CurrentSeller,
  dashboardPage,
  DashboardPages,
  formString,
  humanTime,
  pageNotice,
  SellerSession,
  ViewsService,
} from '../../identity';
import { CustomersService } from '../customers/customers.service';
import { toOrderSummary } from '../orders/order.mapper';
import { SalesReportService } from '../reports/sales-report.service';
import { SubscriptionLifecycle } from '../subscriptions/subscription-lifecycle.service';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscriptions/subscription.entity';
import { toSubscriptionDto } from '../subscriptions/subscription.mapper';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { requireIntId } from '../../../common/http/path-id';

type Query = Record<string, unknown>;

const PER_PAGE = 20;

/** What a refused cancellation leaves for the subscription's page. */
const CANCEL_REFUSED = 'subscription-cancel-refused';

/**
 * Dashboard → Customers (search by name or email; each with its orders, what it paid and its
 * subscriptions) and Subscriptions (filter by status; cancel at the end of the period or now, after
 * a confirmation), through billing's services as the API uses them.
 */
@DashboardPages()
export class CustomersPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly customers: CustomersService,
    private readonly subscriptions: SubscriptionsService,
    private readonly lifecycle: SubscriptionLifecycle,
    private readonly reports: SalesReportService,
    private readonly views: ViewsService,
  ) {}

  @Get('customers')
  async customerList(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const page = dashboardPage(req.query, PER_PAGE);
    const q = formString((req.query as Query).q).slice(0, 200);
    const [customers, total] = await this.customers.search(storeId, q, page);
    const body = this.eta.render('customers', {
      ...this.views.locals(req),
      customers,
      q,
      total,
      page: page.page,
      lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
      pageNotice: pageNotice(page.asked),
      search: (p: number) => new URLSearchParams({ ...(q ? { q } : {}), page: String(p) }).toString(),
    });
    this.views.renderContent(req, res, 'Customers', body);
  }

  @Get('customers/:id')
  async customer(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const customer = await this.customers.get(storeId, id);
    const everything = { page: 1, perPage: 100, offset: 0 };
    const [[orders, orderCount], paid, [subscriptions], currency] = await Promise.all([
      this.customers.orders(storeId, String(customer.id), undefined, everything).catch((error: unknown) => {
        if (error instanceof NotFoundError) return [[], 0] as [never[], number];
        throw error;
      }),
      this.reports.paidByCustomer(storeId, customer.id),
      this.subscriptions.list(storeId, { customerId: customer.id }, everything),
      this.reports.currencyOf(storeId),
    ]);
    const body = this.eta.render('customer', {
      ...this.views.locals(req),
      customer,
      orders: orders.map(toOrderSummary),
      orderCount,
      paid: centsToNumber(paid),
      currency: currency ?? '',
      subscriptions: subscriptions.map(toSubscriptionDto),
    });
    this.views.renderContent(req, res, customer.name, body);
  }

  @Get('subscriptions')
  async subscriptionList(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const page = dashboardPage(req.query, PER_PAGE);
    const raw = formString((req.query as Query).status);
    const status = SUBSCRIPTION_STATUSES.includes(raw as SubscriptionStatus) ? (raw as SubscriptionStatus) : undefined;
    const [views, total] = await this.subscriptions.list(storeId, { status }, page);
    const body = this.eta.render('subscriptions', {
      ...this.views.locals(req),
      subscriptions: views.map(toSubscriptionDto),
      status: status ?? '',
      statuses: SUBSCRIPTION_STATUSES,
      error: raw && !status ? `status must be one of: ${SUBSCRIPTION_STATUSES.join(', ')}.` : null,
      total,
      page: page.page,
      lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
      pageNotice: pageNotice(page.asked),
      search: (p: number) => new URLSearchParams({ ...(status ? { status } : {}), page: String(p) }).toString(),
    });
    this.views.renderContent(req, res, 'Subscriptions', body);
  }

  @Get('subscriptions/:id')
  async subscription(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    await this.subscriptionPage(req, res, storeId, requireIntId(id), {
      notice: (req.query as Query).cancelled ? 'Subscription cancelled.' : null,
      // Why the last cancellation was refused (it redirects here: post/redirect/get).
      error: this.views.takeFlash<string>(req, CANCEL_REFUSED) ?? null,
    });
  }

  @Get('subscriptions/:id/cancel')
  async confirmCancel(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const subscription = toSubscriptionDto(await this.subscriptions.get(storeId, requireIntId(id)));
    // The page as the subscription is now: one that has ended offers nothing to confirm.
    if (subscription.status !== 'active' && subscription.status !== 'past_due') {
      return this.views.refused(req, res, {
        title: 'Nothing to cancel',
        message: `Subscription ${subscription.id} is ${subscription.status}: it has already ended.`,
        back: { href: this.views.url(`/subscriptions/${subscription.id}`), label: 'Back to the subscription' },
        status: 409,
      });
    }
    const now = (req.query as Query).when === 'now';
    const who = subscription.customer
      ? `${subscription.customer.name} (${subscription.customer.email})`
      : 'the customer';
    this.views.confirm(req, res, {
      title: now ? 'Cancel subscription now' : 'Cancel at the end of the period',
      message: now
        ? `Cancel the subscription of ${who} now? It ends at once and no renewal is charged; this cannot be undone.`
        : `Cancel the subscription of ${who} at the end of its period? It stays active until ${humanTime(new Date(subscription.end_date))} and is not renewed.`,
      action: this.views.url(`/subscriptions/${subscription.id}/cancel?when=${now ? 'now' : 'period_end'}`),
      button: now ? 'Cancel now' : 'Cancel at period end',
      cancel: this.views.url(`/subscriptions/${subscription.id}`),
    });
  }

  @Post('subscriptions/:id/cancel')
  async cancel(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const subscriptionId = requireIntId(id);
    try {
      await this.lifecycle.cancel(storeId, subscriptionId, (req.query as Query).when !== 'now');
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return this.views.redirectWithFlash(req, res, `/subscriptions/${subscriptionId}`, {
        key: CANCEL_REFUSED,
        value: error.message,
      });
    }
    res.redirect(this.views.url(`/subscriptions/${subscriptionId}?cancelled=1`), 303);
  }

  private async subscriptionPage(
    req: FastifyRequest,
    res: FastifyReply,
    storeId: number,
    id: number,
    data: Record<string, unknown>,
    status = 200,
  ): Promise<void> {
    const subscription = toSubscriptionDto(await this.subscriptions.get(storeId, id));
    const body = this.eta.render('subscription', {
      ...this.views.locals(req),
      subscription,
      currency: (await this.reports.currencyOf(storeId)) ?? '',
      notice: null,
      error: null,
      ...data,
    });
    this.views.renderContent(req, res, `Subscription ${subscription.id}`, body, status);
  }
}
