import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cents, centsToDecimal } from '../../../common/money';

const money = (cents: Cents): string => centsToDecimal(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const date = (d: Date): string => d.toISOString().slice(0, 10);

const VIEWS = join(__dirname, 'views');

/**
 * The checkout's one script (its Total follows the add-ons ticked), inlined and allowed by its
 * SHA-256 alone: no other script can run on a customer's page. It is a file of its own, not a
 * block of a template, so the policy of the other surfaces does not list it (their hashes are the
 * templates' inline blocks).
 */
const TOTAL_SCRIPT = readFileSync(join(VIEWS, 'checkout-total.js'), 'utf8');
const TOTAL_SCRIPT_HASH = `'sha256-${createHash('sha256').update(TOTAL_SCRIPT, 'utf8').digest('base64')}'`;

/** Renders the customer's pages: one layout, inline CSS, no external assets. */
@Injectable()
export class CheckoutViews {
  private readonly eta = new Eta({ views: VIEWS, cache: true, autoEscape: true });

  render(res: FastifyReply, view: string, data: Record<string, unknown>, status = 200): void {
    const html = this.eta.render(view, { money, date, totalScript: TOTAL_SCRIPT, ...data });
    // Customer pages carry tokens in their URLs: never cached, never leaked as a referrer.
    void res
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header(
        'Content-Security-Policy',
        `default-src 'none'; script-src ${TOTAL_SCRIPT_HASH}; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self' http: https:`,
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
