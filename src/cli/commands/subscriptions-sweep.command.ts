import { CLOCK, Clock } from '../../common/time';
import { SubscriptionSweep } from '../../modules/billing';
import type { CliCommand } from '../cli-command';
import { CliUsageError, optional } from '../flags';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * One subscription sweep as of `--at` (default now): operators catch up with it,
 * tests move time with it. Prints what it did.
 */
export const subscriptionsSweep: CliCommand = {
  name: 'subscriptions:sweep',
  usage: 'subscriptions:sweep [--at ISO-8601]',
  summary:
    'Run one subscription sweep (renewal orders, automatic charges, past due, expiry, cancel at period end) as of an instant.',
  flags: { at: 'the instant to sweep as of (ISO-8601; default now)' },
  async run(app, flags) {
    const given = optional(flags, 'at');
    let at: Date;
    if (given === undefined) {
      at = app.get<Clock>(CLOCK).now();
    } else {
      at = new Date(given);
      if (!ISO_8601.test(given) || Number.isNaN(at.getTime()))
        throw new CliUsageError('--at must be an ISO-8601 date-time, e.g. 2026-03-01T00:00:00Z');
    }
    return app.get(SubscriptionSweep, { strict: false }).sweep(at);
  },
};
