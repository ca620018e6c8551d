import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/app-error';
import { PageRequest } from '../../../common/pagination/pagination';
import type { OrderSummaryFields } from '../orders/order.mapper';
import type { OrderStatus } from '../orders/order-status';
import { OrdersRepository } from '../orders/orders.repository';
import { Customer } from './customer.entity';
import { CustomersRepository } from './customers.repository';

/** Customers of a store (README, *Choices where the contract is silent*): created and updated by order creation, read here. */
@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly orderRows: OrdersRepository,
  ) {}

  list(storeId: number, email: string | undefined, page: PageRequest): Promise<[Customer[], number]> {
    return this.customers.listOfStore(storeId, email, page);
  }

  /** Customers whose name or email contains `text` (every customer when it is empty), newest first. */
  search(storeId: number, text: string, page: PageRequest): Promise<[Customer[], number]> {
    return text
      ? this.customers.searchOfStore(storeId, text, page)
      : this.customers.listOfStore(storeId, undefined, page);
  }

  async get(storeId: number, id: string): Promise<Customer> {
    const customer = /^\d{1,9}$/.test(id) ? await this.customers.findOfStore(storeId, Number(id)) : null;
    if (!customer) throw new NotFoundError();
    return customer;
  }

  /** The customer an order was placed for (the buyer's own pages). */
  findOfOrder(order: { storeId: number; customerId: number }): Promise<Customer | null> {
    return this.customers.findOfStore(order.storeId, order.customerId);
  }

  /** Only this customer's orders; an unknown or foreign customer is the spec's 404. */
  async orders(
    storeId: number,
    id: string,
    status: OrderStatus | undefined,
    page: PageRequest,
  ): Promise<[OrderSummaryFields[], number]> {
    const found = /^\d{1,9}$/.test(id)
      ? await this.orderRows.summariesOfCustomer(storeId, Number(id), status, page)
      : null;
    if (!found) throw new NotFoundError('No orders found for this customer.');
    return found;
  }
}
