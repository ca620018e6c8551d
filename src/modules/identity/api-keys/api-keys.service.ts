import { Injectable } from '@nestjs/common';
import { generateToken, sha256Hex } from '../../../common/crypto';
import { ValidationError } from '../../../common/errors/app-error';
import { Principal } from '../auth/principal';
import { Scope } from '../scopes';
import { ScopeRegistry } from '../scopes/scope-registry';
import { StoreModes } from '../sellers/store-modes.service';
import { ApiKey } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';

/** What a test key starts with (README, *Test mode*); live keys are `sk_` and 40 characters. */
export const TEST_KEY_PREFIX = 'sk_test_';

/** `last_used_at` is written at most once per key per interval, never on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeysService {
  private readonly lastTouched = new Map<number, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly scopes: ScopeRegistry,
    private readonly modes: StoreModes,
  ) {}

  /**
   * Creates a key; the token is returned here once and only its hash is kept. With `test`, a test
   * key (`sk_test_…`) of the store's test side (made on first use), whichever side `storeId` is.
   */
  async create(input: {
    storeId: number;
    sellerId: number;
    name: string;
    scopes: string[];
    test?: boolean;
  }): Promise<{ apiKey: ApiKey; token: string }> {
    const unknown = input.scopes.filter((scope) => !this.scopes.has(scope));
    if (unknown.length) throw ValidationError.field('scopes', `Unknown scope: ${unknown.join(', ')}.`);
    if (!input.scopes.length) throw ValidationError.field('scopes', 'Choose at least one scope.');
    const store = await this.modes.storeFor(input.storeId, input.test ? 'test' : 'live');
    const token = input.test ? generateToken('sk_test') : generateToken('sk');
    const apiKey = await this.keys.create({
      storeId: store.id,
      sellerId: input.sellerId,
      name: input.name,
      prefix: token.slice(0, input.test ? 15 : 10),
      tokenHash: sha256Hex(token),
      scopes: [...new Set(input.scopes)] as Scope[],
    });
    return { apiKey, token };
  }

  list(storeId: number): Promise<ApiKey[]> {
    return this.keys.listForStore(storeId);
  }

  revoke(storeId: number, id: number): Promise<boolean> {
    return this.keys.revoke(storeId, id);
  }

  async authenticate(token: string): Promise<Principal | null> {
    const key = await this.keys.findActiveByHash(sha256Hex(token));
    if (!key) return null;
    this.recordUse(key.id);
    return {
      storeId: key.storeId,
      sellerId: key.sellerId,
      currency: key.currency,
      scopes: key.scopes,
      tokenType: 'api_key',
      tokenId: key.id,
      // A test key was made for the test store only (create()), so its form tells its mode.
      test: token.startsWith(TEST_KEY_PREFIX),
    };
  }

  private recordUse(id: number): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    // Fire and forget: a lost `last used` update must never fail the request.
    void this.keys.touchLastUsed(id, new Date(now)).catch(() => this.lastTouched.delete(id));
  }
}
