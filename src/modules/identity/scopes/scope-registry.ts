import { Injectable, Optional } from '@nestjs/common';
import { Contributions, ExtensionPoint } from '../../../common/plugins/contributions';
import { Scope, SCOPE_PATTERN, SCOPES } from '../scopes';

/** A scope a plugin adds, with the description `GET /v1/scopes`, the dashboard and the consent screen show. */
export interface ScopeDefinition {
  /** `resource.action`, e.g. `chat.write`. */
  scope: string;
  description: string;
}

export const SCOPE_EXTENSIONS = new ExtensionPoint<ScopeDefinition>('scopes');

/**
 * The scopes of this app: the contract's (the OpenAPI description), then the plugins', in registration order.
 * API keys, OAuth requests, `GET /v1/scopes`, the dashboard's checkboxes and the route catalog all
 * read it, so a plugin scope is grantable and enforced like any other.
 */
@Injectable()
export class ScopeRegistry {
  private readonly descriptions = new Map<Scope, string>(Object.entries(SCOPES));

  constructor(@Optional() contributions?: Contributions) {
    for (const { value, plugin } of contributions?.entries(SCOPE_EXTENSIONS) ?? []) {
      if (!SCOPE_PATTERN.test(value.scope)) {
        throw new Error(`Plugin ${plugin}: scope ${JSON.stringify(value.scope)} is not of the form resource.action`);
      }
      if (this.descriptions.has(value.scope))
        throw new Error(`Plugin ${plugin}: scope ${value.scope} is already registered`);
      this.descriptions.set(value.scope, value.description);
    }
  }

  all(): Scope[] {
    return [...this.descriptions.keys()];
  }

  has(value: string): value is Scope {
    return this.descriptions.has(value);
  }

  describe(scope: Scope): string {
    return this.descriptions.get(scope) ?? '';
  }
}
