import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import { join } from 'node:path';
import { Cents, centsToDecimal } from '../../../common/money';
import type { PasswordResetEmail } from '../../identity';
import type { CustomerMessage, CustomerMessageKind } from '../messages/customer-message';
import type { SellerMessage } from '../messages/seller-message';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const money = (cents: Cents): string => centsToDecimal(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const date = (d: Date | string): string => new Date(d).toISOString().slice(0, 10);
/**
 * When a cancelled subscription ends: at the end of its period when it was cancelled for then
 * (which a sweep may reach only later), else at once, when the event happened.
 */
const endedAt = (m: CustomerMessage): Date | string =>
  m.subscription?.cancelAtPeriodEnd ? m.subscription.endDate : m.occurredAt;
/** Payment methods as buyers know them (the checkout names them the same). */
const METHOD_NAMES: Record<string, string> = { mpesa: 'M-Pesa', emola: 'e-Mola', card: 'card' };
const methodName = (method: string): string => METHOD_NAMES[method] ?? method;
/** A value as one line of plain text: runs of line breaks and other control characters become one space. */
// eslint-disable-next-line no-control-regex -- control characters are what this takes out
const oneLine = (value: unknown): string => String(value).replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ');

const SUBJECTS: Record<CustomerMessageKind, (m: CustomerMessage, plan: string) => string> = {
  receipt: (m) => `Your receipt from ${m.store.brand}: order ${m.order.number}`,
  refund: (m) => `Your refund from ${m.store.brand}: order ${m.order.number}`,
  renewal_due: (m, plan) => `Your ${plan} subscription with ${m.store.brand} is due for renewal`,
  payment_failed: (m, plan) => `Payment failed: your ${plan} subscription with ${m.store.brand}`,
  subscription_cancelled: (m, plan) => `Your ${plan} subscription with ${m.store.brand} is cancelled`,
  subscription_expired: (m, plan) => `Your ${plan} subscription with ${m.store.brand} has expired`,
};

/**
 * The six messages (README, *Customer emails*) as email: one eta template per kind in HTML (escaped, table
 * layout, inline styles, no remote images, no scripts: what common mail clients show alike) and
 * one in plain text.
 */
@Injectable()
export class EmailRenderer {
  private readonly html = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });
  // Plain text keeps one line per line: a newline after an output tag stays (autoTrim off); the
  // templates end their control-only lines with `-%>`, which takes that line's newline away. A
  // value shown with `<%=` is one line of content: its line breaks and other control characters
  // become a space, so a name cannot start lines of its own (a fake "Bcc:" under "Hello"). Text
  // whose lines are content (a reviewer's reason, an included part) is shown with `<%~`.
  private readonly text = new Eta({
    views: join(__dirname, 'views', 'text'),
    cache: true,
    autoEscape: true,
    escapeFunction: oneLine,
    autoTrim: false,
  });

  render(m: CustomerMessage): RenderedEmail {
    const planName = m.plan?.name ?? m.product.name;
    // Header values are one line: a brand or plan name cannot add headers.
    const subject = SUBJECTS[m.kind](m, planName).replace(/[\r\n]+/g, ' ');
    return this.both(m.kind, {
      m,
      subject,
      planName,
      occurredAt: m.occurredAt,
      endedAt: endedAt(m),
      money,
      date,
      methodName,
    });
  }

  /** A message to a seller (`views/seller/`, `views/text/seller/`), in the dashboard's name rather than a store's brand. */
  renderForSeller(m: SellerMessage): RenderedEmail {
    const verdict = m.decision === 'approved' ? 'approved' : 'not approved';
    const subject = `Review of ${m.product.name}: ${verdict}`.replace(/[\r\n]+/g, ' ');
    return this.both(`seller/${m.kind}`, { m, subject });
  }

  /** The password-reset link of a seller (identity's README, *Password reset*), in the dashboard's name. */
  renderPasswordReset(m: PasswordResetEmail): RenderedEmail {
    const expires = `${m.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return this.both('account/password_reset', { m, subject: 'Reset your seller dashboard password', expires });
  }

  private both(view: string, data: { subject: string } & Record<string, unknown>): RenderedEmail {
    return {
      subject: data.subject,
      html: this.html.render(view, data),
      text: `${this.text
        .render(view, data)
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim()}\n`,
    };
  }
}
