import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError, ValidationError } from '../../../common/errors/app-error';
import { Public } from '../../identity';
import type { Order } from '../orders/order.entity';
import type { PaymentAttempt } from '../payments/payment-attempt.entity';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service';
import { PaymentResult } from '../payments/payments.service';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { CheckoutPage, CheckoutService, RENEWAL_CANCEL_MESSAGE } from './checkout.service';
import { wantsJson } from './content-negotiation';
import { cancellationReason, customerFieldErrors, declineMessage, retryRefusal } from './customer-messages';
import { CheckoutViews } from './views.service';

type Form = Record<string, unknown>;

/** How often the waiting page asks again (seconds). */
const WAITING_REFRESH_SECONDS = 3;

/**
 * The hosted checkout (README, *Taking payments*) on the `{pay_url}` surface. No bearer token: the pay_token
 * in the path is the credential. Customer pages, so they are not part of the API's OpenAPI document.
 */
@ApiExcludeController()
@Public()
@UseFilters(CheckoutErrorsFilter)
@Controller('token/:payToken')
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly payments: CheckoutPaymentsService,
    private readonly views: CheckoutViews,
  ) {}

  @Get()
  async page(@Param('payToken') payToken: string, @Query() query: Form, @Res() res: FastifyReply): Promise<void> {
    await this.renderPage(res, payToken, await this.checkout.page(payToken, query), 200);
  }

  @Post('pay')
  @HttpCode(200)
  async pay(
    @Param('payToken') payToken: string,
    @Body() body: Form,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    // The order first: its store's mode says which gateways may take the payment (README, *Test mode*).
    const found = await this.payments.checkoutOf(payToken);
    const form = this.checkout.readPayForm(body ?? {}, await this.payments.modeOf(found.order));
    if (form.errors) {
      if (wantsJson(req)) throw new ValidationError(form.errors);
      // The page again with every choice the buyer made (method, number, add-ons), not the defaults.
      const page = await this.checkout.pageOf(found.order, this.checkout.submittedChoices(body ?? {}));
      return this.renderPage(res, payToken, page, 422, { errors: form.errors });
    }
    // A hosted payment page (Stripe Checkout) sends the customer back to the status route either way.
    const back = this.checkout.statusUrl(payToken);
    const result = await this.payments.pay(found, form.attempt, {
      success: back,
      cancel: this.checkout.checkoutUrl(payToken),
    });
    await this.answer(req, res, payToken, result);
  }

  /**
   * The cancel button. A pending renewal is not cancelled by it (billing README, `checkout/`): 409
   * `A renewal stays open until its subscription ends; cancel the subscription instead.` in JSON,
   * the renewal's checkout page saying so for browsers; nothing changes.
   */
  @Post('cancel')
  @HttpCode(200)
  async cancel(
    @Param('payToken') payToken: string,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const result = await this.checkout.cancel(payToken);
    if (result.outcome !== 'renewal') return this.answer(req, res, payToken, result);
    if (wantsJson(req)) throw new ConflictError(RENEWAL_CANCEL_MESSAGE);
    const page = await this.checkout.pageOf(result.order);
    return this.renderPage(res, payToken, page, 409, { notice: RENEWAL_CANCEL_MESSAGE });
  }

  /**
   * "Try again" after a declined payment: the order is pending again behind the same link. JSON:
   * 200 `{status, order_number, order_status: "pending"}`; browsers go back to the checkout page.
   * An order that cannot be reopened answers as paying it would (409 `Order is no longer pending.`).
   */
  @Post('retry')
  @HttpCode(200)
  async retry(
    @Param('payToken') payToken: string,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    let result: PaymentResult;
    try {
      result = await this.payments.retry(payToken);
    } catch (error) {
      // Reopening takes the coupon again; one that can no longer apply is said on the page, in words.
      if (wantsJson(req) || !(error instanceof ValidationError)) throw error;
      const { order } = await this.payments.checkoutOf(payToken);
      const notice = retryRefusal(order, error.errors as Record<string, string[]>);
      return this.renderPage(res, payToken, await this.checkout.pageOf(order), 422, { notice });
    }
    if (result.outcome !== 'reopened') return this.answer(req, res, payToken, result);
    if (wantsJson(req)) {
      void res.status(200).send({ status: 'success', order_number: result.order.orderNumber, order_status: 'pending' });
      return;
    }
    res.redirect(this.checkout.checkoutUrl(payToken), 303);
  }

  /**
   * `{status, order_number, order_status, payment_status}` for JSON clients; for
   * browsers the waiting page while the payment is open, otherwise where the payment led.
   */
  @Get('status')
  async status(
    @Param('payToken') payToken: string,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const { order, attempt } = await this.payments.status(payToken);
    if (wantsJson(req)) {
      void res.header('Cache-Control', 'no-store').send(this.statusBody(order, attempt));
      return;
    }
    const open = attempt !== null && (attempt.status === 'processing' || attempt.status === 'unknown');
    if (order.status === 'pending' && open) return this.renderWaiting(res, payToken, order, attempt);
    if (order.status === 'pending') return res.redirect(this.checkout.checkoutUrl(payToken), 303);
    const outcome = order.status === 'cancelled' ? 'declined' : 'approved';
    return this.answer(req, res, payToken, { outcome, order });
  }

  /** JSON: `{status, order_number, order_status}` (202 with `payment_status` while waiting). Browsers: 303 (README, *Taking payments*). */
  private async answer(req: FastifyRequest, res: FastifyReply, payToken: string, result: PaymentResult): Promise<void> {
    const { order, outcome } = result;
    if (outcome === 'not_pending') {
      if (wantsJson(req)) throw new ConflictError('Order is no longer pending.');
      return this.renderPage(res, payToken, await this.checkout.pageOf(order), 409);
    }
    if (outcome === 'waiting' || outcome === 'redirect') {
      if (wantsJson(req)) {
        const body = this.statusBody(order, result.attempt ?? null);
        void res.status(202).send(outcome === 'redirect' ? { ...body, redirect_url: result.redirectUrl } : body);
        return;
      }
      if (outcome === 'redirect') return res.redirect(result.redirectUrl!, 303);
      return this.renderWaiting(res, payToken, order, result.attempt ?? null);
    }
    if (wantsJson(req)) {
      void res.status(200).send({ status: 'success', order_number: order.orderNumber, order_status: order.status });
      return;
    }
    const back = this.checkout.checkoutUrl(payToken);
    const target =
      outcome === 'approved' ? (order.returnUrl ?? this.checkout.thankYouUrl(order)) : (order.cancelUrl ?? back);
    res.redirect(target, 303);
  }

  private statusBody(order: Order, attempt: PaymentAttempt | null) {
    return {
      status: 'success',
      order_number: order.orderNumber,
      order_status: order.status,
      payment_status: attempt?.status ?? null,
    };
  }

  /* ---- payments: the "Confirm the payment on your phone" page (README, *Taking payments*) ---- */
  private renderWaiting(res: FastifyReply, payToken: string, order: Order, attempt: PaymentAttempt | null): void {
    this.views.render(res, 'waiting', {
      order,
      attempt,
      statusUrl: this.checkout.statusUrl(payToken),
      refreshSeconds: WAITING_REFRESH_SECONDS,
    });
  }
  /* ---- end payments ---- */

  /**
   * The checkout page in any state of its order. `errors`: the pay form's field errors as the API
   * words them (the page shows the customer's words); `notice`: why a button changed nothing.
   */
  private async renderPage(
    res: FastifyReply,
    payToken: string,
    page: CheckoutPage,
    status: number,
    extra: { errors?: Record<string, string[]>; notice?: string } = {},
  ): Promise<void> {
    const order = page.order;
    const [declined, renewalDecline, payments] = await Promise.all([
      this.payments.wasDeclined(order),
      this.payments.renewalDecline(order),
      this.checkout.paymentChoices(order),
    ]);
    // The method the buyer chose (none when the form named none it offers), else the first one.
    const chosen = page.choices;
    const method = chosen.submitted
      ? (payments.methods.find((m) => m.value === chosen.method)?.value ?? null)
      : (payments.methods[0]?.value ?? null);
    this.views.render(
      res,
      'checkout',
      {
        page,
        errors: customerFieldErrors(
          extra.errors ?? {},
          payments.methods.map((m) => m.label),
        ),
        notice: extra.notice ?? null,
        method,
        paymentNumber: page.choices.paymentNumber,
        payments,
        action: this.checkout.checkoutUrl(payToken),
        portalUrl: order.transactionId && order.status !== 'pending' ? this.checkout.portalUrl(order) : null,
        reason: cancellationReason(order, declined),
        // A renewal stays pending after a decline: the reason goes above its pay form.
        declinedNotice:
          renewalDecline && !extra.notice
            ? `${declineMessage({ paymentMethod: renewalDecline.method, paymentNumber: renewalDecline.paymentNumber })} You can try again below.`
            : null,
        canRetry: declined,
      },
      status,
    );
  }
}
