import type { DynamicModule } from '@nestjs/common';
import { definePlugin } from '../../src/plugins';
import { BlockedEmailDomain } from './blocked-domain.entity';
import { BlockedDomainRule } from './blocked-domain.rule';
import { BlockedDomainsController } from './blocked-domains.controller';
import { BlockedDomainsRepository } from './blocked-domains.repository';
import { BlockedEmailDomains1795705157966 } from './migrations/1795705157966-BlockedEmailDomains';

/**
 * Lets a store refuse orders from email domains it names: a table of its own (`blocked_email_domains`,
 * entity and migration), `GET`/`PUT /v1/blocked-domains` with two scopes of its own, and a checkout
 * rule that refuses a new order at a blocked domain (422 on `customer.email`).
 *
 * ```ts
 * createApp(config, connection, { plugins: [BlockedDomainsPlugin.register()] });
 * ```
 */
export const BlockedDomainsPlugin = {
  register(): DynamicModule {
    return definePlugin({
      name: 'blocked-domains',
      entities: [BlockedEmailDomain],
      migrations: [BlockedEmailDomains1795705157966],
      scopes: {
        'blocked_domains.read': 'Read the email domains the store takes no orders from.',
        'blocked_domains.write': 'Change the email domains the store takes no orders from.',
      },
      controllers: [BlockedDomainsController],
      providers: [BlockedDomainsRepository],
      // A class: Nest constructs it in this module, with the repository above injected.
      checkoutRules: [BlockedDomainRule],
    });
  },
};
