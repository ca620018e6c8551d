import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { Principal } from './principal';

/**
 * Resolves a bearer token to its principal. Each kind of token is recognised by its prefix
 * (the security schemes of the OpenAPI description), and API keys and OAuth access tokens behave identically afterwards (the OpenAPI description).
 */
export interface TokenVerifier {
  readonly prefix: string;
  authenticate(token: string): Promise<Principal | null>;
}

@Injectable()
export class AuthService {
  private readonly verifiers = new Map<string, TokenVerifier>();

  constructor(apiKeys: ApiKeysService) {
    this.register({ prefix: 'sk_', authenticate: (token) => apiKeys.authenticate(token) });
  }

  /** Lets another identity component (OAuth) accept its own tokens. */
  register(verifier: TokenVerifier): void {
    this.verifiers.set(verifier.prefix, verifier);
  }

  async authenticate(token: string): Promise<Principal | null> {
    const verifier = this.verifiers.get(token.slice(0, 3));
    return verifier ? verifier.authenticate(token) : null;
  }
}
