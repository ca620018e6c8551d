import { formatTimestamp } from '../../../common/time';

const HUMAN = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** `1 Mar 2025, 10:15 UTC`. */
export function humanTime(date: Date): string {
  return `${HUMAN.format(date)} UTC`;
}

/**
 * A `<time>` element for dashboard templates (insert it unescaped, `<%~ %>`): the human-readable
 * time, with the API's ISO value as its `datetime` and in a tooltip (`title`).
 */
export function timeTag(date: Date | null | undefined, none = 'never'): string {
  if (!date) return `<span class="muted">${none}</span>`;
  const iso = formatTimestamp(date)!;
  return `<time datetime="${iso}" title="${iso}">${humanTime(date)}</time>`;
}

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * An amount as the dashboard shows it: two decimals, thousands grouped, then the currency
 * (`1,234.50 MZN`). `amount` is the API's JSON number (at most two decimals).
 */
export function money(amount: number, currency: string): string {
  return `${MONEY.format(amount)} ${currency}`;
}

/** Helpers every dashboard template gets. */
export const TEMPLATE_HELPERS = { time: timeTag, money };

export interface ConfirmPage {
  title: string;
  message: string;
  /** Shown under the message in monospace (a key prefix, a URL). */
  detail?: string;
  /** The POST that does it (a path on the web surface, already prefixed). */
  action: string;
  button: string;
  cancel: string;
}
