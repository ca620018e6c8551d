import { Injectable } from '@nestjs/common';
import { ALL_SCOPES, SCOPES } from '../scopes';
import { Principal } from '../auth/principal';
import { RouteCatalogService } from './route-catalog.service';
import { ScopesResponseDto } from './scopes-response.dto';

@Injectable()
export class ScopesService {
  constructor(private readonly catalog: RouteCatalogService) {}

  describe(principal: Principal): ScopesResponseDto {
    const endpoints = this.catalog.endpointsByScope();
    return {
      status: 'success',
      scopes: ALL_SCOPES.map((scope) => ({ scope, description: SCOPES[scope], endpoints: endpoints.get(scope) ?? [] })),
      granted_scopes: principal.scopes,
    };
  }
}
