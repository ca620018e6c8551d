import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError, ValidationError } from '../../../common/errors/app-error';
import { Public } from '../../identity/auth/auth.decorators';
import type { Order } from '../orders/order.entity';
import { PaymentResult, PaymentsService } from '../payments/payments.service';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { CheckoutService } from './checkout.service';
import { wantsJson } from './content-negotiation';
import { cancellationReason, customerFieldErrors } from './customer-messages';
import { CheckoutViews } from './views.service';

type Form = Record<string, unknown>;

/**
 * The hosted checkout (decisions §8) on the `{pay_url}` surface. No bearer token: the pay_token in
 * the path is the credential. Customer pages, so they are not part of the API's OpenAPI document.
 */
@ApiExcludeController()
@Public()
@UseFilters(CheckoutErrorsFilter)
@Controller('token/:payToken')
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly payments: PaymentsService,
    private readonly views: CheckoutViews,
  ) {}

  @Get()
  async page(@Param('payToken') payToken: string, @Query() query: Form, @Res() res: FastifyReply): Promise<void> {
    const page = await this.checkout.page(payToken, query);
    this.renderPage(res, payToken, page.order, page, {}, '', 200);
  }

  @Post('pay')
  @HttpCode(200)
  async pay(@Param('payToken') payToken: string, @Body() body: Form, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const form = this.checkout.readPayForm(body ?? {});
    if (form.errors) {
      if (wantsJson(req)) throw new ValidationError(form.errors);
      const order = await this.payments.orderOfToken(payToken);
      const page = await this.checkout.pageOf(order);
      const number = typeof body?.payment_number === 'string' ? body.payment_number : '';
      return this.renderPage(res, payToken, order, page, customerFieldErrors(form.errors), number, 422);
    }
    await this.answer(req, res, payToken, await this.payments.pay(payToken, form.attempt));
  }

  @Post('cancel')
  @HttpCode(200)
  async cancel(@Param('payToken') payToken: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    await this.answer(req, res, payToken, await this.payments.cancel(payToken));
  }

  /** JSON: `{status, order_number, order_status}`. Browsers: 303 as decisions §8 lays out. */
  private async answer(req: FastifyRequest, res: FastifyReply, payToken: string, result: PaymentResult): Promise<void> {
    const { order, outcome } = result;
    if (outcome === 'not_pending') {
      if (wantsJson(req)) throw new ConflictError('Order is no longer pending.');
      return this.renderPage(res, payToken, order, await this.checkout.pageOf(order), {}, '', 409);
    }
    if (wantsJson(req)) {
      void res.status(200).send({ status: 'success', order_number: order.orderNumber, order_status: order.status });
      return;
    }
    const back = this.checkout.checkoutUrl(payToken);
    const target =
      outcome === 'approved'
        ? (order.returnUrl ?? this.checkout.portalUrl(order))
        : outcome === 'pending'
          ? back
          : (order.cancelUrl ?? back);
    res.redirect(target, 303);
  }

  private renderPage(
    res: FastifyReply,
    payToken: string,
    order: Order,
    page: Awaited<ReturnType<CheckoutService['pageOf']>>,
    errors: Record<string, string[]>,
    paymentNumber: string,
    status: number,
  ): void {
    this.views.render(
      res,
      'checkout',
      {
        page,
        errors,
        paymentNumber,
        action: this.checkout.checkoutUrl(payToken),
        portalUrl: order.transactionId && order.status !== 'pending' ? this.checkout.portalUrl(order) : null,
        reason: cancellationReason(order),
      },
      status,
    );
  }
}
