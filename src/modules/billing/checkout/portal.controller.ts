import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../identity';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { CheckoutService } from './checkout.service';
import { wantsJson } from './content-negotiation';
import { CheckoutViews } from './views.service';
import { ComparedQuery } from '../../../common/http/compared-query';

/** The customer's order portal (README, *Taking payments*), keyed by order number and transaction id. */
@ApiExcludeController()
@Public()
@UseFilters(CheckoutErrorsFilter)
@Controller('order/:orderNumber')
export class PortalController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly views: CheckoutViews,
  ) {}

  @Get()
  async portal(
    @Param('orderNumber') orderNumber: string,
    @ComparedQuery('transaction_id') transactionId: unknown,
    @Query('thanks') thanks: unknown,
    @Query('cancelled') cancelled: unknown,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const page = await this.checkout.portal(orderNumber, transactionId);
    this.views.render(res, 'portal', {
      page,
      action: `${this.checkout.payUrl}/order/${encodeURIComponent(orderNumber)}`,
      // Right after paying: the thank-you (only true of a paid order). After the cancel button:
      // its confirmation (only true of a subscription that was cancelled).
      thanks: thanks === '1' && page.order.status === 'approved',
      cancelConfirmed: cancelled === '1' && page.subscription?.cancelledAt != null,
    });
  }

  @Post('subscription/cancel')
  @HttpCode(200)
  async cancelSubscription(
    @Param('orderNumber') orderNumber: string,
    @Body() body: Record<string, unknown>,
    @ComparedQuery('transaction_id') queryTransactionId: unknown,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const transactionId = body?.transaction_id ?? queryTransactionId;
    // A destructive action is confirmed: the form's required checkbox (a page without it changes nothing).
    if (!wantsJson(req) && body?.confirm !== 'yes') {
      const page = await this.checkout.portal(orderNumber, transactionId);
      res.redirect(this.checkout.portalUrl(page.order), 303);
      return;
    }
    const order = await this.checkout.cancelSubscription(orderNumber, transactionId);
    if (wantsJson(req)) {
      const page = await this.checkout.portal(orderNumber, order.transactionId);
      void res.send({
        status: 'success',
        order_number: order.orderNumber,
        subscription_status: page.subscription?.status ?? null,
      });
      return;
    }
    res.redirect(`${this.checkout.portalUrl(order)}&cancelled=1`, 303);
  }

  /** "Pay the renewal": 303 to the checkout link of the open renewal order (JSON: the link). */
  @Post('subscription/renewal')
  @HttpCode(200)
  async payRenewal(
    @Param('orderNumber') orderNumber: string,
    @Body() body: Record<string, unknown>,
    @ComparedQuery('transaction_id') queryTransactionId: unknown,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const transactionId = body?.transaction_id ?? queryTransactionId;
    const url = await this.checkout.renewalCheckoutUrl(orderNumber, transactionId);
    if (wantsJson(req)) {
      void res.send({ status: 'success', order_number: orderNumber, checkout_url: url });
      return;
    }
    if (url) res.redirect(url, 303);
    else
      res.redirect(
        `${this.checkout.payUrl}/order/${encodeURIComponent(orderNumber)}?transaction_id=${encodeURIComponent(String(transactionId))}`,
        303,
      );
  }
}
