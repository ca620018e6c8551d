import { Body, Controller, Get, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { AuthorizationParams, OAuthAuthorizationService } from '../oauth/oauth-authorization.service';
import { ScopeRegistry } from '../scopes/scope-registry';
import { SellersService } from '../sellers/sellers.service';
import { ViewsService } from './views.service';
import { formList, formString, requireSeller } from './web-auth';
import { CsrfGuard } from './sessions/web-session.middleware';
import { WebExceptionFilter } from './web-exception.filter';

const PARAMS: (keyof AuthorizationParams)[] = [
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
];

/** The consent screen `{web_url}/oauth/authorize` (decisions §2.3). */
@ApiExcludeController()
@Public()
@UseFilters(WebExceptionFilter)
@UseGuards(CsrfGuard)
@Controller('oauth/authorize')
export class AuthorizeController {
  constructor(
    private readonly authorization: OAuthAuthorizationService,
    private readonly sellers: SellersService,
    private readonly views: ViewsService,
    private readonly scopes: ScopeRegistry,
  ) {}

  @Get()
  async show(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    const params = pick(query);
    // Order of decisions §2.3: client and redirect_uri, then the login, then the scopes.
    await this.authorization.resolveClient(params);
    const seller = requireSeller(req);
    const request = await this.authorization.validate(params);
    const store = await this.sellers.findStore(seller.storeId);
    this.views.render(req, res, 'authorize', {
      title: `Authorize ${request.app.name}`,
      app: request.app,
      store,
      scopes: request.scopes.map((scope) => ({ scope, description: this.scopes.describe(scope) })),
      params,
    });
  }

  @Post()
  async decide(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const params = pick(body);
    await this.authorization.resolveClient(params);
    const seller = requireSeller(
      req,
      `${this.views.url('/oauth/authorize')}?${new URLSearchParams(params as Record<string, string>)}`,
    );
    const request = await this.authorization.validate(params);
    const target =
      formString(body.decision) === 'approve'
        ? await this.authorization.approve(request, seller, formList(body.scopes))
        : this.authorization.deny(request);
    res.redirect(target, 302);
  }
}

function pick(source: Record<string, unknown>): AuthorizationParams {
  const out: AuthorizationParams = {};
  for (const key of PARAMS) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}
