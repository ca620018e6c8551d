import { ProductsService, ReviewDecision } from '../../modules/catalog';
import type { CliCommand } from '../cli-command';
import { CliUsageError, optional, required } from '../flags';

const DECISIONS: ReviewDecision[] = ['approve', 'reject'];

/** The operator's review decision on a product submitted with publish. */
export const productReviewCommand: CliCommand = {
  name: 'product:review',
  usage: 'product:review --product PID --decision approve|reject [--reason TEXT]',
  summary: 'Record the review decision on a product submitted with publish; the seller is emailed it.',
  flags: {
    product: 'the product_pid',
    decision: 'approve or reject',
    reason: "the reviewer's words, in the seller's email",
  },
  async run(app, flags) {
    const pid = required(flags, 'product');
    const decision = required(flags, 'decision');
    if (!DECISIONS.includes(decision as ReviewDecision))
      throw new CliUsageError('--decision must be approve or reject');
    const product = await app
      .get(ProductsService, { strict: false })
      .review(pid, decision as ReviewDecision, optional(flags, 'reason'));
    return { product_pid: product.pid, status_2: product.reviewStatus };
  },
};
