import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { ConflictError, ValidationError } from '../../../common/errors/app-error';
import { Seller } from './seller.entity';
import { SellersRepository, type StoreSettings } from './sellers.repository';
import { Store } from './store.entity';

export interface RegisterSeller {
  name: string;
  email: string;
  password: string;
  storeName: string;
  brand?: string;
  currency?: string;
}

/** A store as the operators' review queue and the review emails see it. */
export interface ReviewStore {
  id: number;
  name: string;
  brand: string;
  currency: string;
  /** The test side of a store (README, *Test mode*). */
  test: boolean;
  seller: { id: number; name: string; email: string };
}

@Injectable()
export class SellersService {
  constructor(private readonly sellers: SellersRepository) {}

  async register(input: RegisterSeller): Promise<{ seller: Seller; store: Store }> {
    if (await this.sellers.findByEmail(input.email)) {
      throw new ConflictError('A seller with this email already exists.');
    }
    const passwordHash = await argon2.hash(input.password, { type: argon2.argon2id });
    return this.sellers.createWithStore(
      { name: input.name, email: input.email, passwordHash },
      {
        name: input.storeName,
        brand: input.brand ?? input.storeName,
        currency: (input.currency ?? 'MZN').toUpperCase(),
      },
    );
  }

  /** The seller for these credentials, or null. Always spends one argon2 verification. */
  async verifyCredentials(email: string, password: string): Promise<Seller | null> {
    const seller = await this.sellers.findByEmail(email);
    const hash = seller?.passwordHash ?? DUMMY_HASH;
    const ok = await argon2.verify(hash, password).catch(() => false);
    return ok && seller ? seller : null;
  }

  findByEmail(email: string): Promise<Seller | null> {
    return this.sellers.findByEmail(email);
  }

  findById(id: number): Promise<Seller | null> {
    return this.sellers.findById(id);
  }

  findStoreOfSeller(sellerId: number): Promise<Store | null> {
    return this.sellers.findStoreOfSeller(sellerId);
  }

  /** The store by id; with `manager`, read in the caller's transaction. */
  findStore(storeId: number, manager?: EntityManager): Promise<Store | null> {
    return this.sellers.findStore(storeId, manager);
  }

  /** The shortest password a seller may choose (sign-up, password change, password reset). */
  static readonly MIN_PASSWORD_LENGTH = 8;

  /** The new password's message when it breaks the rule, else null (password change and reset). */
  static newPasswordError(next: string): string | null {
    return next.length < SellersService.MIN_PASSWORD_LENGTH ? 'Use at least 8 characters.' : null;
  }

  /**
   * Settings → Password: the current password must match; the new one is hashed like sign-up's.
   * Field errors (`current_password`, `new_password`) as a `ValidationError`. The seller's other
   * dashboard sessions end; `keepSid`, the one that changed it, stays logged in.
   */
  async changePassword(sellerId: number, current: string, next: string, keepSid?: string): Promise<void> {
    const seller = await this.sellers.findById(sellerId);
    const errors: Record<string, string[]> = {};
    if (!seller || !(await argon2.verify(seller.passwordHash, current).catch(() => false)))
      errors.current_password = ['The current password is wrong.'];
    const rule = SellersService.newPasswordError(next);
    if (rule) errors.new_password = [rule];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    await this.sellers.replacePassword(sellerId, await argon2.hash(next, { type: argon2.argon2id }), { keepSid });
  }

  /**
   * Settings → Store: the live store's name, brand, contact number, logo and currency, which its
   * test store shares (README, *Test mode*). The page decides whether the currency may change.
   */
  updateStoreSettings(liveStoreId: number, settings: StoreSettings): Promise<void> {
    return this.sellers.updateStoreSettings(liveStoreId, settings);
  }

  /**
   * `operator:grant` / `operator:revoke` (identity's README, *Operators*): an operator reviews the
   * products of every store at `{web_url}/review`. False when no seller has this email.
   */
  setOperator(email: string, operator: boolean): Promise<boolean> {
    return this.sellers.setOperator(email, operator);
  }

  isOperator(sellerId: number): Promise<boolean> {
    return this.sellers.isOperator(sellerId);
  }

  /**
   * What the review queue shows of each store (store name, brand, currency, test side, and its
   * seller's name and email), by store id. Only for operators' pages: the one read of identity that
   * is not scoped to the caller's store.
   */
  async storesForReview(storeIds: number[]): Promise<Map<number, ReviewStore>> {
    const stores = await this.sellers.findStoresWithSellers([...new Set(storeIds)]);
    return new Map(
      stores.map((store) => [
        store.id,
        {
          id: store.id,
          name: store.name,
          brand: store.brand,
          currency: store.currency.trim(),
          test: store.liveStoreId !== null,
          seller: { id: store.sellerId, name: store.seller?.name ?? '', email: store.seller?.email ?? '' },
        },
      ]),
    );
  }

  /** Dashboard "Email my customers" (README, *Customer emails*). */
  setEmailCustomers(storeId: number, on: boolean): Promise<void> {
    return this.sellers.setEmailCustomers(storeId, on);
  }
}

// Verifying against a fixed hash for unknown emails keeps response time independent of whether
// the account exists.
const DUMMY_HASH = '$argon2id$v=19$m=65536,p=4,t=3$YCO83fdidYK1mYcqM+QS7w$ztp/6on/Afm6JL6O6Qf1GDTDXTMKSEyGyoFj1uz1oB4';
