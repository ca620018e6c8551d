/**
 * A service process for the crash test: boots the app on DATABASE_URL, commits COUNT order events
 * the way billing does, prints `committed` and waits to be killed.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { createInstanceOn, emitOrderEvent, TestProduct } from './helpers';

async function main(): Promise<void> {
  const instance = await createInstanceOn(process.env.DATABASE_URL!, {
    WEBHOOK_WORKER: process.env.WEBHOOK_WORKER ?? 'true',
    LOG_LEVEL: 'silent',
  });
  const product = JSON.parse(process.env.PRODUCT!) as TestProduct;
  const orders = await Promise.all(
    Array.from({ length: Number(process.env.COUNT) }, () =>
      emitOrderEvent(instance.app.get(DataSource), instance.app, {
        kind: 'order_approved',
        storeId: Number(process.env.STORE_ID),
        product,
      }),
    ),
  );
  process.stdout.write(`committed ${JSON.stringify(orders.map((o) => o.payload.order_number))}\n`);
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
