import { randomBytes } from 'node:crypto';
import { ApiKeysService } from '../../src/modules/identity/api-keys/api-keys.service';
import { SellersService } from '../../src/modules/identity/sellers/sellers.service';
import { Scope } from '../../src/modules/identity/scopes';
import { ScopeRegistry } from '../../src/modules/identity/scopes/scope-registry';
import { TestApp } from './test-app';

export interface TestSeller {
  sellerId: number;
  storeId: number;
  email: string;
  password: string;
  /** An API key with the requested scopes. */
  token: string;
  /** `{ Authorization: 'Bearer …' }` for supertest's `.set()`. */
  auth: { Authorization: string };
  /** Another key of the same store with other scopes. */
  tokenWith(scopes: Scope[]): Promise<string>;
}

/** A new seller with a store (MZN unless told) and an API key holding `scopes` (all of the app's, plugins' included, by default). */
export async function createSeller(
  t: Pick<TestApp, 'app'>,
  options: { scopes?: Scope[]; currency?: string; brand?: string } = {},
): Promise<TestSeller> {
  const sellers = t.app.get(SellersService);
  const keys = t.app.get(ApiKeysService);
  const suffix = randomBytes(4).toString('hex');
  const email = `seller-${suffix}@example.com`;
  const password = 'correct horse battery';
  const { seller, store } = await sellers.register({
    name: `Seller ${suffix}`,
    email,
    password,
    storeName: `Store ${suffix}`,
    brand: options.brand,
    currency: options.currency ?? 'MZN',
  });
  const tokenWith = async (scopes: Scope[]) =>
    (await keys.create({ storeId: store.id, sellerId: seller.id, name: 'test', scopes })).token;
  const token = await tokenWith(options.scopes ?? t.app.get(ScopeRegistry).all());
  return {
    sellerId: seller.id,
    storeId: store.id,
    email,
    password,
    token,
    auth: { Authorization: `Bearer ${token}` },
    tokenWith,
  };
}
