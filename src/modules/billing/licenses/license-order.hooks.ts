import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderProcess } from '../orders/order-process';
import { LicensesService } from './licenses.service';

/**
 * What an order's transitions do to license keys: an approval issues them (a
 * renewal moves its subscription's keys to the new `end_date`), a refund disables them. Both run
 * after the order is saved and before its event, so the `order_approved` payload carries the keys.
 */
@Injectable()
export class LicenseOrderHooks implements OnModuleInit {
  constructor(
    private readonly process: OrderProcess,
    private readonly licenses: LicensesService,
  ) {}

  onModuleInit(): void {
    this.process.register({
      name: 'licenses.approved',
      to: ['approved'],
      afterSave: ({ manager, order, bumps }) => this.licenses.onApproved(manager, order, bumps),
    });
    this.process.register({
      name: 'licenses.refunded',
      to: ['refunded'],
      afterSave: ({ manager, order }) => this.licenses.onRefunded(manager, order),
    });
  }
}
