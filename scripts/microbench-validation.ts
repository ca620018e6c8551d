/**
 * Micro-benchmark of the order-creation body through the global ValidationPipe: the fast accept
 * path alone, the pipe as the app uses it, and the full class-transformer + class-validator path.
 * Run alone on a quiet machine: `npx ts-node --transpile-only scripts/microbench-validation.ts`.
 */
import 'reflect-metadata';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { createValidationPipe } from '../src/common/http/validation.pipe';
import { CreateOrderDto } from '../src/modules/billing/orders/dto/create-order.dto';
import { acceptCreateOrder } from '../src/modules/billing/orders/dto/create-order.fast-accept';

const BODY: ArgumentMetadata = { type: 'body', metatype: CreateOrderDto };
const pipe = createValidationPipe();

const bodies = {
  // What the benchmark's scenario sends (scripts/bench/seed.ts).
  minimal: {
    amount: 100,
    product_pid: 'prd_7Hk2mQ9xLp',
    customer: { name: 'Customer 1', email: 'customer-1@bench.example', mobile_number: '+258841234567' },
  },
  full: {
    amount: 1500,
    product_pid: 'prd_7Hk2mQ9xLp',
    customer: {
      name: 'Ana Macuácua',
      email: 'ana@example.com',
      mobile_number: '+258841234567',
      payment_number: '841234567',
    },
    plan_id: 'pln_4f9QaZ',
    affiliate_id: 3,
    return_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
    coupon_code: 'WELCOME10',
    tracking: {
      utm_source: 'facebook',
      utm_campaign: 'black-friday',
      utm_medium: 'cpc',
      utm_content: 'banner-a',
      utm_term: 'ebook',
    },
  },
};

async function nsPerCall(run: () => unknown, iterations: number): Promise<number> {
  for (let i = 0; i < iterations / 10; i++) await run(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await run();
  return Number(process.hrtime.bigint() - start) / iterations;
}

async function main(): Promise<void> {
  for (const [name, body] of Object.entries(bodies)) {
    const text = JSON.stringify(body);
    // A fresh parse per call, as a request has: the full path mutates what it is given.
    const parse = await nsPerCall(() => JSON.parse(text), 200_000);
    const fast = await nsPerCall(() => acceptCreateOrder(JSON.parse(text)), 200_000);
    const viaPipe = await nsPerCall(() => pipe.transform(JSON.parse(text), BODY), 200_000);
    const full = await nsPerCall(() => ValidationPipe.prototype.transform.call(pipe, JSON.parse(text), BODY), 20_000);
    const net = (ns: number) => `${Math.round(ns - parse)} ns`;
    console.log(
      `${name.padEnd(8)} fast accept ${net(fast)}, pipe (fast path) ${net(viaPipe)}, full path ${net(full)} (JSON.parse ${Math.round(parse)} ns excluded)`,
    );
  }
}

void main();
