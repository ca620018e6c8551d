import { Body, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthAuthorizationService } from '../oauth/oauth-authorization.service';
import { ScopeRegistry } from '../scopes/scope-registry';
import { SellersService } from '../sellers/sellers.service';
import { ViewsService } from './views.service';
import { formList, formString, liveSession, SellerSession } from './web-auth';
import { CurrentSeller, DashboardPages, ReturnAfterLogin } from './dashboard-pages';
import { formOf, OAuthClientGuard, pick } from './oauth-client.guard';
import { assertConsentBinding, CONSENT_BINDING_FIELD, consentBinding } from './consent-binding';

/** The consent screen `{web_url}/oauth/authorize` (README, *Operating it*). */
@DashboardPages('oauth/authorize', { before: [OAuthClientGuard] })
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
    @CurrentSeller() seller: SellerSession,
  ): Promise<void> {
    const params = pick(query);
    const request = await this.authorization.validate(params);
    const store = await this.sellers.findStore(seller.liveStoreId);
    this.views.render(req, res, 'authorize', {
      title: `Authorize ${request.app.name}`,
      app: request.app,
      store,
      scopes: request.scopes.map((scope) => ({ scope, description: this.scopes.describe(scope) })),
      params,
      binding: { name: CONSENT_BINDING_FIELD, value: consentBinding(req, params) },
    });
  }

  @Post()
  @ReturnAfterLogin(
    (req) => `${req.originalUrl.split('?')[0]}?${new URLSearchParams(pick(formOf(req)) as Record<string, string>)}`,
  )
  async decide(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
    @CurrentSeller() seller: SellerSession,
  ): Promise<void> {
    const params = pick(body);
    // The hidden fields name the request; only the page's signature says it is the one shown.
    assertConsentBinding(req, params, body[CONSENT_BINDING_FIELD]);
    const request = await this.authorization.validate(params);
    const target =
      formString(body.decision) === 'approve'
        ? await this.authorization.approve(request, liveSession(seller), formList(body.scopes))
        : this.authorization.deny(request);
    res.redirect(target, 302);
  }
}
