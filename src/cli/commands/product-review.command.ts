import type { INestApplicationContext } from '@nestjs/common';
import { ProductsService, ReviewDecision } from '../../modules/catalog/products/products.service';
import type { CliCommand, CliFlags } from '../cli-command';

const DECISIONS: ReviewDecision[] = ['approve', 'reject'];

function single(flags: CliFlags, name: string): string {
  const values = flags[name] ?? [];
  if (values.length !== 1 || !values[0]) throw new Error(`--${name} is required (once)`);
  return values[0];
}

/** decisions §2.2: the operator's review decision on a product submitted with publish. */
export const productReviewCommand: CliCommand = {
  name: 'product:review',
  usage: 'product:review --product PID --decision approve|reject',
  async run(app: INestApplicationContext, flags: CliFlags) {
    const pid = single(flags, 'product');
    const decision = single(flags, 'decision');
    if (!DECISIONS.includes(decision as ReviewDecision)) throw new Error('--decision must be approve or reject');
    const product = await app.get(ProductsService, { strict: false }).review(pid, decision as ReviewDecision);
    return { product_pid: product.pid, status_2: product.status2 };
  },
};
