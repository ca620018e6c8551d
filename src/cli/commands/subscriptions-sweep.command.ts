import { CLOCK, Clock, ClockFrom } from '../../common/time';
import { SubscriptionSweep } from '../../modules/billing';
import type { CliCommand } from '../cli-command';
import { CliUsageError, optional } from '../flags';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * One subscription sweep as of `--at` (default now): operators catch up with it,
 * tests move time with it. The command's application runs on a clock that starts at `--at` and
 * moves on from there, so the renewal orders, attempts and events it writes are dated as of that
 * instant, as the sweep that should have run then would have dated them. Prints what it did.
 */
export const subscriptionsSweep: CliCommand = {
  name: 'subscriptions:sweep',
  usage: 'subscriptions:sweep [--at ISO-8601]',
  summary:
    'Run one subscription sweep (renewal orders, automatic charges, past due, expiry, cancel at period end) as of an instant.',
  flags: { at: 'the instant to sweep as of (ISO-8601; default now)' },
  clock(flags) {
    const given = optional(flags, 'at');
    if (given === undefined) return undefined;
    const at = new Date(given);
    if (!ISO_8601.test(given) || Number.isNaN(at.getTime()))
      throw new CliUsageError('--at must be an ISO-8601 date-time, e.g. 2026-03-01T00:00:00Z');
    return new ClockFrom(at);
  },
  async run(app) {
    const clock = app.get<Clock>(CLOCK);
    // The sweep is as of `--at` exactly; what it writes after that is dated as time goes on from it.
    const at = clock.now();
    if (clock instanceof ClockFrom) clock.start();
    return app.get(SubscriptionSweep, { strict: false }).sweep(at);
  },
};
