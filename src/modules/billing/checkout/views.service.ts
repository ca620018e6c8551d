import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import { join } from 'node:path';
import { Cents, centsToDecimal } from '../../../common/money';

const money = (cents: Cents): string => centsToDecimal(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const date = (d: Date): string => d.toISOString().slice(0, 10);

/** Renders the customer's pages: one layout, inline CSS, no external assets. */
@Injectable()
export class CheckoutViews {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  render(res: FastifyReply, view: string, data: Record<string, unknown>, status = 200): void {
    const html = this.eta.render(view, { money, date, ...data });
    // Customer pages carry tokens in their URLs: never cached, never leaked as a referrer.
    void res
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self' http: https:",
      )
      .send(html);
  }

  notFound(res: FastifyReply): void {
    this.render(
      res,
      'error',
      { heading: 'Not found', message: 'This link is not valid or has been replaced by a newer one.' },
      404,
    );
  }
}
