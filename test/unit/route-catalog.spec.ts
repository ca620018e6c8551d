import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AnyToken, Public, RequireScopes } from '../../src/modules/identity/auth/auth.decorators';
import { RouteCatalogService } from '../../src/modules/identity/scopes/route-catalog.service';
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

@Controller('pages')
class PageController {
  @Get()
  page(): void {}
}

/** IdempotencyModule provides what `@Idempotent()`'s guard needs; no request reaches it here. */
async function boot(...controllers: (new () => unknown)[]) {
  const moduleRef = await Test.createTestingModule({ imports: [DiscoveryModule, IdempotencyModule], controllers, providers: [RouteCatalogService] })
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
    await expect(boot(ThingsController)).rejects.toThrow('POST routes under /v1 without @Idempotent(): POST /v1/things/{id}/archive');
    await expect(boot(AnyTokenPostController)).rejects.toThrow('POST routes under /v1 without @Idempotent(): POST /v1/me/ping');
  });

  it('accepts public POSTs without it, and flags the routes that have it', async () => {
    const app = await boot(PublicPostController, DeclaredController);
    const flagged = app.get(RouteCatalogService).all().filter((route) => route.idempotent);
    expect(flagged.map((route) => `${route.method} ${route.path}`)).toEqual(['POST /v1/widgets']);
    await app.close();
  });
});
