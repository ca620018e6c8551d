import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterAbstract } from 'rate-limiter-flexible';
import { countRequest, Public, RateLimiterFactory, setRateLimitHeaders } from '../../identity';
import { BuyForm, BuyLinks, BuyPage } from './buy-links.service';
import { CheckoutErrorsFilter } from './checkout-errors.filter';
import { buyFieldErrors } from './customer-messages';
import { CheckoutViews } from './views.service';

/** Orders one client IP may start through buy links in a minute (README, *Buy links*). */
export const BUY_LINK_ORDERS_PER_MINUTE = 20;

/**
 * Buy links (README, *Buy links*) on the `{pay_url}` surface: a product's public page that asks the
 * buyer's name, email and mobile number (and a plan, and a coupon), then 303 to the hosted checkout
 * of the order it made. No token: anyone with the link may buy. Customer pages, not in the API's
 * OpenAPI document.
 */
@ApiExcludeController()
@Public()
@UseFilters(CheckoutErrorsFilter)
@Controller('buy/:pid')
export class BuyController {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    private readonly links: BuyLinks,
    private readonly views: CheckoutViews,
    factory: RateLimiterFactory,
  ) {
    this.limiter = factory.create({ keyPrefix: 'rl:buy', points: BUY_LINK_ORDERS_PER_MINUTE, duration: 60 });
  }

  // The query and the form are read as sent, past the pipe's text inspection: a value no store could
  // hold (U+0000) is a field left empty here, answered beside its field with the form kept.
  @Get()
  async page(@Param('pid') pid: string, @Req() req: FastifyRequest, @Res() res: FastifyReply) {
    const page = await this.links.page(pid);
    this.render(res, page, this.links.emptyForm(page, recordOf(req.query)), {}, 200);
  }

  @Post()
  async buy(@Param('pid') pid: string, @Req() req: FastifyRequest, @Res() res: FastifyReply) {
    const page = await this.links.page(pid);
    const form = this.links.readForm(recordOf(req.body));
    // Each submission may make an order: counted per client IP before anything is written.
    const limit = await countRequest(this.limiter, BUY_LINK_ORDERS_PER_MINUTE, req.ip);
    setRateLimitHeaders(res, limit);
    if (!limit.allowed) {
      void res.header('Retry-After', String(limit.resetSeconds));
      const wait = { form: [`Too many tries from your network. Wait ${limit.resetSeconds} seconds and try again.`] };
      return this.render(res, page, form, wait, 429);
    }
    const result = await this.links.buy(page, form);
    if (result.errors) return this.render(res, page, form, buyFieldErrors(result.errors), 422);
    res.redirect(result.checkoutUrl, 303);
  }

  private render(res: FastifyReply, page: BuyPage, form: BuyForm, errors: Record<string, string[]>, status: number) {
    this.views.render(res, 'buy', { page, form, errors, action: this.links.url(page.product.pid) }, status);
  }
}

const recordOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
