import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AnyToken, Public, RequireScopes } from '../../src/modules/identity/auth/auth.decorators';
import { Contributions } from '../../src/common/plugins/contributions';
import { RouteCatalogService } from '../../src/modules/identity/scopes/route-catalog.service';
import { SCOPE_EXTENSIONS, ScopeRegistry } from '../../src/modules/identity/scopes/scope-registry';
import { IdempotencyModule } from '../../src/common/idempotency/idempotency.module';
import { IdempotencyRepository } from '../../src/common/idempotency/idempotency.repository';
import { Idempotent } from '../../src/common/idempotency/idempotent.decorator';

@Controller('v1/widgets')
class DeclaredController {
  @Get()
  @RequireScopes('products.read')
  list(): void {}

  @Get(':id')
  @RequireScopes('products.read')
  one(): void {}

  @Post()
  @RequireScopes('products.write')
  @Idempotent()
  create(): void {}
}

@Controller('v1/open')
@Public()
class PublicController {
  @Get()
  ping(): void {}
}

@Controller('v1/whoami')
class AnyTokenController {
  @Get()
  @AnyToken()
  me(): void {}
}

@Controller('v1/forgotten')
class ForgottenController {
  @Get()
  @RequireScopes('orders.read')
  fine(): void {}

  @Post('oops')
  oops(): void {}
}

@Controller('v1/plugin-widgets')
class PluginScopeController {
  @Get()
  @RequireScopes('widgets.read')
  list(): void {}
}

@Controller('v1/typo')
class TypoController {
  @Get()
  @RequireScopes('products.raed')
  list(): void {}
}

@Controller('pages')
class PageController {
  @Get()
  page(): void {}
}

/**
 * IdempotencyModule provides what `@Idempotent()`'s guard needs; no request reaches it here. The
 * scope registry holds the contract's scopes and `widgets.read`, as a plugin would add it.
 */
async function boot(...controllers: (new () => unknown)[]) {
  const contributions = new Contributions([
    { point: SCOPE_EXTENSIONS, value: { scope: 'widgets.read', description: 'Read widgets.' }, plugin: 'widgets' },
  ]);
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule, IdempotencyModule],
    controllers,
    providers: [RouteCatalogService, ScopeRegistry, { provide: Contributions, useValue: contributions }],
  })
    .overrideProvider(IdempotencyRepository)
    .useValue({})
    .compile();
  return moduleRef.init();
}

describe('RouteCatalogService', () => {
  it('maps each scope to its endpoints from the decorators the guard reads', async () => {
    const app = await boot(DeclaredController, PublicController, AnyTokenController, PageController);
    const byScope = app.get(RouteCatalogService).endpointsByScope();
    expect(byScope.get('products.read')).toEqual(['GET /v1/widgets', 'GET /v1/widgets/{id}']);
    expect(byScope.get('products.write')).toEqual(['POST /v1/widgets']);
    expect([...byScope.keys()].sort()).toEqual(['products.read', 'products.write']);
    await app.close();
  });

  it("accepts a plugin's scope and fails start-up naming a route that requires a scope nobody registered", async () => {
    const app = await boot(PluginScopeController);
    expect(app.get(RouteCatalogService).endpointsByScope().get('widgets.read')).toEqual(['GET /v1/plugin-widgets']);
    expect(app.get(ScopeRegistry).all()).toContain('widgets.read');
    await app.close();
    await expect(boot(TypoController)).rejects.toThrow('Routes requiring a scope nobody registered: GET /v1/typo');
  });

  it('fails start-up naming a /v1 route without @Public, @AnyToken or @RequireScopes', async () => {
    await expect(boot(DeclaredController, ForgottenController)).rejects.toThrow(
      'Routes without @Public(), @AnyToken() or @RequireScopes(): POST /v1/forgotten/oops',
    );
  });
});

describe('the @Idempotent() start-up check', () => {
  @Controller('v1/things')
  class ThingsController {
    @Post()
    @RequireScopes('products.write')
    @Idempotent()
    create(): void {}

    @Post(':id/archive')
    @RequireScopes('products.write')
    archive(): void {}
  }

  @Controller('v1/hooks')
  @Public()
  class PublicPostController {
    @Post()
    receive(): void {}
  }

  @Controller('v1/me')
  class AnyTokenPostController {
    @Post('ping')
    @AnyToken()
    ping(): void {}
  }

  it('fails start-up naming an authenticated /v1 POST without @Idempotent()', async () => {
    await expect(boot(ThingsController)).rejects.toThrow(
      'POST routes under /v1 without @Idempotent(): POST /v1/things/{id}/archive',
    );
    await expect(boot(AnyTokenPostController)).rejects.toThrow(
      'POST routes under /v1 without @Idempotent(): POST /v1/me/ping',
    );
  });

  it('accepts public POSTs without it, and flags the routes that have it', async () => {
    const app = await boot(PublicPostController, DeclaredController);
    const flagged = app
      .get(RouteCatalogService)
      .all()
      .filter((route) => route.idempotent);
    expect(flagged.map((route) => `${route.method} ${route.path}`)).toEqual(['POST /v1/widgets']);
    await app.close();
  });
});
