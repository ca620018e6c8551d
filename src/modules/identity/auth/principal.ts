import type { Scope } from '../scopes';

/** Who is calling: the store every query is scoped to, and what the token may do. */
export interface Principal {
  storeId: number;
  sellerId: number;
  /** The store's currency, read with the token: every order of the store is in it. */
  currency: string;
  scopes: Scope[];
  tokenType: 'api_key' | 'oauth';
  tokenId: number;
  /** A test key (`sk_test_…`): the store is a test store (README, *Test mode*). OAuth tokens are live. */
  test: boolean;
}
