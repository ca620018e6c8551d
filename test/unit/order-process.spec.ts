import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { OrderProcess, OrderTransition } from '../../src/modules/billing/orders/order-process';
import type { OrderStatus } from '../../src/modules/billing/orders/order-status';
import type { Order } from '../../src/modules/billing/orders/order.entity';

const transition = (from: OrderStatus, to: OrderStatus): OrderTransition => ({
  manager: {} as EntityManager,
  order: { id: 1, status: to } as Order,
  from,
  to,
  at: new Date('2026-01-01T00:00:00Z'),
  bumps: () => Promise.resolve([]),
});

describe('OrderProcess (the hooks of order transitions)', () => {
  it('runs the hooks of the target state, narrowed by `from`, in registration order, each phase apart', async () => {
    const process = new OrderProcess();
    const calls: string[] = [];
    process.register({
      name: 'a',
      to: ['approved'],
      beforeSave: async () => void calls.push('a.before'),
      afterSave: async () => void calls.push('a.after'),
    });
    process.register({ name: 'b', to: ['approved', 'cancelled'], beforeSave: async () => void calls.push('b.before') });
    process.register({
      name: 'c',
      to: ['pending'],
      from: ['cancelled'],
      beforeSave: async (t) => void calls.push(`c.before:${t.from}`),
    });

    await process.beforeSave(transition('pending', 'approved'));
    await process.afterSave(transition('pending', 'approved'));
    expect(calls).toEqual(['a.before', 'b.before', 'a.after']);

    calls.length = 0;
    await process.beforeSave(transition('pending', 'cancelled'));
    await process.beforeSave(transition('approved', 'refunded'));
    expect(calls).toEqual(['b.before']);

    calls.length = 0;
    await process.beforeSave(transition('cancelled', 'pending'));
    expect(calls).toEqual(['c.before:cancelled']);
  });

  it('lets a hook change the order before it is saved, and stops at the first error', async () => {
    const process = new OrderProcess();
    process.register({
      name: 'commission',
      to: ['approved'],
      beforeSave: async ({ order }) => {
        order.commissionAmount = 150;
      },
    });
    process.register({
      name: 'refuse',
      to: ['approved'],
      beforeSave: () => Promise.reject(new Error('refused')),
    });
    const after = jest.fn();
    process.register({ name: 'late', to: ['approved'], beforeSave: after });
    const t = transition('pending', 'approved');
    await expect(process.beforeSave(t)).rejects.toThrow('refused');
    expect(t.order.commissionAmount).toBe(150);
    expect(after).not.toHaveBeenCalled();
  });

  it('refuses a hook registered twice under one name', () => {
    const process = new OrderProcess();
    process.register({ name: 'x', to: ['approved'] });
    expect(() => process.register({ name: 'x', to: ['cancelled'] })).toThrow('Order hook x is registered twice.');
  });

  it('is all the transitions service knows of the modules that react: it imports none of them', () => {
    const source = readFileSync(
      join(__dirname, '../../src/modules/billing/orders/order-transitions.service.ts'),
      'utf8',
    );
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((i) => /affiliates|discounts|subscriptions|notifications|webhooks/.test(i))).toEqual([]);
  });
});
