import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { ValidationError } from '../../../common/errors/app-error';
import { ORDER_EVENT_KINDS } from '../../billing';
import { DashboardPages, formList, formString, sellerOf, validateForm, ViewsService } from '../../identity';
import { CreateWebhookDto, UpdateWebhookDto } from '../dto/webhook-input.dto';
import { WebhooksService } from '../webhooks.service';
import { parseIntId, requireIntId } from '../../../common/http/path-id';

type Form = Record<string, unknown>;

interface WebhookForm {
  name: string;
  url: string;
  events: string[];
  product: string;
  status: string;
}

const EMPTY_FORM: WebhookForm = { name: '', url: '', events: ['order_approved'], product: '', status: 'active' };

/**
 * Dashboard → Webhooks (README, *Operating it*): register, edit and delete webhooks, send a test event,
 * read each delivery (payload, response) and redeliver it. The same service and validation as
 * the API; the forms post back here and the pages redirect after a change (no resubmission).
 */
@DashboardPages('webhooks')
export class WebhooksPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly webhooks: WebhooksService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async report(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    await this.listPage(req, res, {});
  }

  @Post()
  async create(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Body() body: Form): Promise<void> {
    const { storeId } = sellerOf(req);
    const form = readForm(body);
    const checked = await validateForm(CreateWebhookDto, toInput(form));
    if (checked.errors) return this.listPage(req, res, { form, errors: checked.errors }, 422);
    try {
      const view = await this.webhooks.create(storeId, checked.dto);
      res.redirect(this.views.url(`/webhooks/${view.webhook.id}?created=1`), 303);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await this.listPage(req, res, { form, errors: error.errors }, 422);
    }
  }

  @Get(':id')
  async detail(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const query = req.query as Form;
    const outcome = await this.outcomeOf(req, requireIntId(id), query);
    // A failed test event is an error, shown as one; the rest are notices.
    await this.detailPage(
      req,
      res,
      requireIntId(id),
      outcome?.failed ? { failure: outcome.text } : { notice: outcome?.text ?? null },
    );
  }

  @Post(':id')
  async update(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @Body() body: Form,
  ): Promise<void> {
    const { storeId } = sellerOf(req);
    const form = readForm(body);
    const input = {
      ...toInput(form),
      status: form.status,
      product_details: form.product || null,
      name: form.name || null,
    };
    // The edit form always shows the URL: left empty, it is required (the API leaves it unchanged).
    const checked = await validateForm(UpdateWebhookDto, input, { required: ['url'] });
    if (checked.errors) return this.detailPage(req, res, requireIntId(id), { form, errors: checked.errors }, 422);
    try {
      await this.webhooks.update(storeId, requireIntId(id), checked.dto);
      res.redirect(this.views.url(`/webhooks/${requireIntId(id)}?saved=1`), 303);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await this.detailPage(req, res, requireIntId(id), { form, errors: error.errors }, 422);
    }
  }

  @Get(':id/delete')
  async confirmDelete(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const { webhook } = await this.webhooks.get(sellerOf(req).storeId, requireIntId(id));
    this.views.confirm(req, res, {
      title: 'Delete webhook',
      message: `Delete ${webhook.name ? `“${webhook.name}”` : 'this webhook'}? Its URL receives no more events and its delivery log goes with it.`,
      detail: webhook.url,
      action: this.views.url(`/webhooks/${webhook.id}/delete`),
      button: 'Delete webhook',
      cancel: this.views.url(`/webhooks/${webhook.id}`),
    });
  }

  @Post(':id/delete')
  async remove(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(sellerOf(req).storeId, requireIntId(id));
    res.redirect(this.views.url('/webhooks?deleted=1'), 303);
  }

  @Post(':id/test')
  async test(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const { delivery } = await this.webhooks.sendTest(sellerOf(req).storeId, requireIntId(id));
    res.redirect(this.views.url(`/webhooks/${requireIntId(id)}?tested=${delivery.id}`), 303);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  async redeliver(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    const { delivery } = await this.webhooks.redeliver(
      sellerOf(req).storeId,
      requireIntId(id),
      requireIntId(deliveryId),
    );
    res.redirect(this.views.url(`/webhooks/${requireIntId(id)}?redelivered=${delivery.id}`), 303);
  }

  private async listPage(req: FastifyRequest, res: FastifyReply, data: Form, status = 200): Promise<void> {
    const { storeId } = sellerOf(req);
    const reports = await this.webhooks.deliveryReport(storeId, 5);
    const query = req.query as Form;
    const body = this.eta.render('report', {
      ...this.views.locals(req),
      reports,
      events: ORDER_EVENT_KINDS,
      form: EMPTY_FORM,
      errors: {},
      notice: query.deleted ? 'Webhook deleted.' : null,
      ...data,
    });
    this.views.renderContent(req, res, 'Webhooks', body, status);
  }

  private async detailPage(
    req: FastifyRequest,
    res: FastifyReply,
    id: number,
    data: Form,
    status = 200,
  ): Promise<void> {
    const { storeId } = sellerOf(req);
    const view = await this.webhooks.get(storeId, id);
    const { items } = await this.webhooks.listDeliveries(storeId, id, { page: 1, perPage: 50, offset: 0 });
    const { webhook, product } = view;
    const form: WebhookForm = {
      name: webhook.name ?? '',
      url: webhook.url,
      events: webhook.events,
      product: product?.pid ?? '',
      status: webhook.status,
    };
    const body = this.eta.render('webhook', {
      ...this.views.locals(req),
      view,
      deliveries: items,
      events: ORDER_EVENT_KINDS,
      form,
      errors: {},
      notice: null,
      failure: null,
      ...data,
    });
    this.views.renderContent(req, res, webhook.name ?? 'Webhook', body, status);
  }

  /** The outcome of the action that redirected here, in words, and whether it failed. */
  private async outcomeOf(
    req: FastifyRequest,
    id: number,
    query: Form,
  ): Promise<{ text: string; failed: boolean } | null> {
    const notice = (text: string) => ({ text, failed: false });
    if (query.created) return notice('Webhook created. Send it a test event to check the receiver.');
    if (query.saved) return notice('Changes saved.');
    const deliveryId =
      typeof query.tested === 'string'
        ? query.tested
        : typeof query.redelivered === 'string'
          ? query.redelivered
          : null;
    if (!deliveryId || parseIntId(deliveryId) === null) return null;
    if (query.redelivered) return notice(`Redelivery #${deliveryId} queued; it appears below once sent.`);
    const { items } = await this.webhooks.listDeliveries(sellerOf(req).storeId, id, {
      page: 1,
      perPage: 50,
      offset: 0,
    });
    const sent = items.find((d) => String(d.delivery.id) === deliveryId)?.delivery;
    if (!sent) return null;
    const answer = sent.responseCode === null ? 'no response' : `HTTP ${sent.responseCode}`;
    return sent.state === 'success'
      ? notice(`Test event delivered (${answer}).`)
      : { text: `Test event failed (${answer})${sent.error ? `: ${sent.error}` : '.'}`, failed: true };
  }
}

function readForm(body: Form): WebhookForm {
  return {
    name: formString(body.name),
    url: formString(body.url),
    events: formList(body.events),
    product: formString(body.product),
    status: formString(body.status) || 'active',
  };
}

function toInput(form: WebhookForm): Form {
  return {
    url: form.url,
    events: form.events,
    ...(form.product ? { product_details: form.product } : {}),
    ...(form.name ? { name: form.name } : {}),
  };
}
