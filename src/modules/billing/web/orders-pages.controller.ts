import { forwardRef, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { AppError, NotFoundError } from '../../../common/errors/app-error';
import { centsToDecimal } from '../../../common/money';
import {
  dashboardPage,
  DashboardPages,
  formString,
  money,
  pageNotice,
  sellerOf,
  validateForm,
  ViewsService,
} from '../../identity';
import { WebhooksService } from '../../webhooks';
import { ListOrdersQueryDto } from '../orders/dto/order-response.dto';
import { toOrderDto } from '../orders/order.mapper';
import { ORDER_STATUSES } from '../orders/order-status';
import { OrdersService } from '../orders/orders.service';
import { DownloadsService } from '../downloads/downloads.service';
import { LicensesService } from '../licenses/licenses.service';

/** Read from `req.query`: the global validation pipe whitelists an untyped `@Query()` down to nothing. */
type Query = Record<string, unknown>;

const PER_PAGE = 25;

/**
 * Dashboard → Orders: the store's orders with filters (status, product, customer email), each
 * order as `GET /v1/orders/{id}` shows it (same service and mapper, so `payments` appear when the
 * API has them) with its events (the webhook deliveries made for it), and the refund of an
 * approved order after a confirmation page.
 */
@DashboardPages('orders')
export class OrdersPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly orders: OrdersService,
    @Inject(forwardRef(() => WebhooksService)) private readonly webhooks: WebhooksService,
    private readonly views: ViewsService,
    private readonly downloads: DownloadsService,
    private readonly licenses: LicensesService,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { storeId } = sellerOf(req);
    const query = req.query as Query;
    const filters = {
      status: formString(query.status),
      product: formString(query.product),
      email: formString(query.email),
    };
    const values = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));
    // The filters with the API's rules and messages; the page as every dashboard list reads it.
    const checked = await validateForm(ListOrdersQueryDto, values);
    const request = dashboardPage(query, PER_PAGE);
    let orders: ReturnType<typeof toOrderDto>[] = [];
    let pastLast = false;
    let total = 0;
    // A filter that is refused lists nothing rather than the wrong orders (or "No orders yet.").
    if (checked.dto) {
      const [views, count] = await this.orders.list(
        storeId,
        { status: checked.dto.status, product: checked.dto.product, email: checked.dto.email },
        request,
      );
      orders = views.map(toOrderDto);
      total = count;
      pastLast = orders.length === 0 && total > 0;
    }
    const search = (p: number) => new URLSearchParams({ ...values, page: String(p) }).toString();
    const body = this.eta.render('orders', {
      ...this.views.locals(req),
      orders,
      total,
      page: request.page,
      lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
      pageNotice: pageNotice(request.asked),
      pastLast,
      search,
      filters,
      statuses: ORDER_STATUSES,
      errors: checked.errors ?? {},
    });
    // A bad filter in the address bar is shown on the page, not answered as a failed request.
    this.views.renderContent(req, res, 'Orders', body);
  }

  @Get(':id')
  async detail(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const query = req.query as Query;
    const { storeId } = sellerOf(req);
    const view = await this.orders.get(storeId, orderRef(id));
    const order = toOrderDto(view);
    const deliveries = await this.webhooks.deliveriesOfOrder(storeId, order.id);
    // the buyer's downloads (as `GET /v1/orders/{id}/downloads`) and license keys.
    const [downloads, licenseKeys] = await Promise.all([
      this.downloads.audit(storeId, order.order_number),
      this.licenses.viewsOfOrder({ id: order.id, subscriptionId: view.subscription?.id ?? null }),
    ]);
    const body = this.eta.render('order', {
      ...this.views.locals(req),
      order,
      // Each attempt with what it was for and, when declined, the gateway's reason.
      payments: (view.payments ?? []).map((p) => ({
        created_at: p.createdAt,
        method: methodName(p.method),
        amount: `${centsToDecimal(p.amount)} ${p.currency}`,
        status: p.status,
        reason:
          p.status === 'failed' ? [p.errorMessage, p.errorCode && `(${p.errorCode})`].filter(Boolean).join(' ') : null,
        transaction_id: p.transactionId,
      })),
      deliveries,
      downloads,
      licenseKeys,
      notice: query.refunded
        ? 'Order refunded. Webhooks that subscribe to order_refund are notified, and the buyer is emailed if the store emails its customers.'
        : query.downloads_reset
          ? 'Download counts reset: the buyer can download every file again.'
          : null,
      date: (iso: string | null) => (iso ? new Date(iso) : null),
    });
    this.views.renderContent(req, res, `Order ${order.order_number}`, body);
  }

  @Get(':id/refund')
  async confirmRefund(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const order = toOrderDto(await this.orders.get(sellerOf(req).storeId, orderRef(id)));
    // The page as the order is now (opened again with Back after a refund, say): no button to
    // refund what cannot be refunded.
    if (order.status !== 'approved') return this.refundRefused(req, res, order, NOT_REFUNDABLE);
    this.views.confirm(req, res, {
      title: 'Refund order',
      message:
        `Refund ${order.order_number}: ${money(order.amount, order.currency)} to ${order.customer.name} (${order.customer.email})? ` +
        'The order becomes refunded and your webhooks receive order_refund; this cannot be undone.',
      action: this.views.url(`/orders/${order.order_number}/refund`),
      button: 'Refund order',
      cancel: this.views.url(`/orders/${order.order_number}`),
    });
  }

  @Get(':id/downloads/reset')
  async confirmReset(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const order = toOrderDto(await this.orders.get(sellerOf(req).storeId, orderRef(id)));
    this.views.confirm(req, res, {
      title: 'Reset downloads',
      message: `Set the download counts of ${order.order_number} back to 0? The buyer's links work again up to the limit.`,
      action: this.views.url(`/orders/${order.order_number}/downloads/reset`),
      button: 'Reset downloads',
      cancel: this.views.url(`/orders/${order.order_number}`),
    });
  }

  @Post(':id/downloads/reset')
  async resetDownloads(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const ref = orderRef(id);
    await this.downloads.reset(sellerOf(req).storeId, ref);
    res.redirect(this.views.url(`/orders/${encodeURIComponent(ref)}?downloads_reset=1`), 303);
  }

  @Post(':id/refund')
  async refund(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const { storeId } = sellerOf(req);
    const ref = orderRef(id);
    try {
      const view = await this.orders.refund(storeId, ref);
      res.redirect(this.views.url(`/orders/${view.order.orderNumber}?refunded=1`), 303);
    } catch (error) {
      // Refused (no longer approved, or the gateway said no): why, the order as it is now, and the way back to it.
      if (!(error instanceof AppError) || error.httpStatus === 404) throw error;
      const order = toOrderDto(await this.orders.get(storeId, ref));
      this.refundRefused(req, res, order, error.message, error.httpStatus);
    }
  }

  private refundRefused(
    req: FastifyRequest,
    res: FastifyReply,
    order: ReturnType<typeof toOrderDto>,
    reason: string,
    status = 409,
  ): void {
    this.views.refused(req, res, {
      title: 'Refund not possible',
      message: `${reason} Order ${order.order_number} is ${order.status}.`,
      back: { href: this.views.url(`/orders/${order.order_number}`), label: `Back to order ${order.order_number}` },
      status,
    });
  }
}

/** How a buyer and a seller name a payment method (the emails and the checkout say the same). */
const METHOD_NAMES: Record<string, string> = { mpesa: 'M-Pesa', emola: 'e-Mola', card: 'Card' };
function methodName(method: string): string {
  return METHOD_NAMES[method] ?? method;
}

const NOT_REFUNDABLE = 'Only approved orders can be refunded.';

function orderRef(id: string): string {
  if (!/^[\w-]{1,64}$/.test(id)) throw new NotFoundError();
  return id;
}
