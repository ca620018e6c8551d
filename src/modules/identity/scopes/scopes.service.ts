import { Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { RouteCatalogService } from './route-catalog.service';
import { ScopeRegistry } from './scope-registry';
import { ScopesResponseDto } from './scopes-response.dto';

@Injectable()
export class ScopesService {
  constructor(
    private readonly catalog: RouteCatalogService,
    private readonly registry: ScopeRegistry,
  ) {}

  describe(principal: Principal): ScopesResponseDto {
    const endpoints = this.catalog.endpointsByScope();
    return {
      status: 'success',
      scopes: this.registry
        .all()
        .map((scope) => ({ scope, description: this.registry.describe(scope), endpoints: endpoints.get(scope) ?? [] })),
      granted_scopes: principal.scopes,
    };
  }
}
