import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import { EntityColumns } from '../../../database/entity-sql';
import { Customer } from './customer.entity';

export interface CustomerDetails {
  storeId: number;
  email: string;
  name: string;
  mobileNumber: string;
  paymentNumber: string | null;
}

/**
 * Creates the store's customer for this email or updates it, in one statement: two orders for a
 * new email racing each other both land on the same row (unique store_id + email). `rows` gives
 * the values $1…$5 (store, email, name, mobile number, payment number).
 */
const upsert = (rows: string) => `INSERT INTO customers (store_id, email, name, mobile_number, payment_number)
       ${rows}
       ON CONFLICT (store_id, email) DO UPDATE
         SET name = EXCLUDED.name,
             mobile_number = EXCLUDED.mobile_number,
             payment_number = COALESCE(EXCLUDED.payment_number, customers.payment_number),
             updated_at = now()`;
const UPSERT = upsert('VALUES ($1, $2, $3, $4, $5)');

@Injectable()
export class CustomersRepository {
  private readonly columns: EntityColumns<Customer>;
  private readonly upsertStatement: PreparedStatement;
  private readonly ofStoreStatement: PreparedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, Customer);
    this.ofStoreStatement = new PreparedStatement(
      dataSource,
      `SELECT ${this.columns.select('c', '')} FROM ${this.columns.table} c WHERE c.store_id = $1 AND c.id = $2`,
    );
    this.upsertStatement = new PreparedStatement(dataSource, `${UPSERT} RETURNING ${this.columns.returning()}`);
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** The upsert (see UPSERT) of the customer, returned. */
  async upsert(manager: EntityManager, details: CustomerDetails): Promise<Customer> {
    const rows = await this.upsertStatement.rows(upsertParams(details), manager);
    return this.columns.hydrate(rows[0]);
  }

  /**
   * The upsert as a source of a statement that also writes the customer's order (it returns the
   * customer's `id`), run once for each row of `when`, a FROM list over earlier sources of that
   * statement (with its WHERE, if any): at most one.
   */
  upsertSource(details: CustomerDetails, when: string): { key: string; text: string; params: unknown[] } {
    return {
      key: `customer-upsert-when-${when}`,
      text: `${upsert(`SELECT $1, $2, $3, $4, $5 FROM ${when}`)} RETURNING id`,
      params: upsertParams(details),
    };
  }

  async findOfStore(storeId: number, id: number, manager?: EntityManager): Promise<Customer | null> {
    const rows = await this.ofStoreStatement.rows([storeId, id], manager);
    return rows.length ? this.columns.hydrate(rows[0]) : null;
  }

  findById(id: number, manager?: EntityManager): Promise<Customer | null> {
    return this.m(manager).findOneBy(Customer, { id });
  }

  async findByIds(ids: number[], manager?: EntityManager): Promise<Map<number, Customer>> {
    if (!ids.length) return new Map();
    const rows = await this.m(manager).findBy(Customer, { id: In([...new Set(ids)]) });
    return new Map(rows.map((c) => [c.id, c]));
  }

  /** The dashboard's search: part of the name or of the email, any case. */
  searchOfStore(storeId: number, text: string, page: PageRequest): Promise<[Customer[], number]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.m()
      .createQueryBuilder(Customer, 'c')
      .where('c.store_id = :storeId', { storeId })
      .andWhere('(c.name ILIKE :pattern OR c.email ILIKE :pattern)', { pattern })
      .orderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .skip(page.offset)
      .take(page.perPage)
      .getManyAndCount();
  }

  listOfStore(storeId: number, email: string | undefined, page: PageRequest): Promise<[Customer[], number]> {
    const qb = this.m().createQueryBuilder(Customer, 'c').where('c.store_id = :storeId', { storeId });
    if (email !== undefined) qb.andWhere('c.email = :email', { email: email.trim().toLowerCase() });
    return qb
      .orderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .skip(page.offset)
      .take(page.perPage)
      .getManyAndCount();
  }
}

/** An email as customers are keyed by it (one customer per store and email, any case). */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

function upsertParams(details: CustomerDetails): unknown[] {
  return [details.storeId, normalizedEmail(details.email), details.name, details.mobileNumber, details.paymentNumber];
}
