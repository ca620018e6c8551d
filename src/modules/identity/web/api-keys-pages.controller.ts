import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ScopeRegistry } from '../scopes/scope-registry';
import { ViewsService } from './views.service';
import { formList, formString, sellerOf } from './web-auth';
import { DashboardPages } from './dashboard-pages';
import { parseIntId } from '../../../common/http/path-id';

/** Settings → API: the seller's API keys (README, *Operating it*). */
@DashboardPages('settings/api')
export class ApiKeysPagesController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly views: ViewsService,
    private readonly scopes: ScopeRegistry,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    await this.page(req, res, {});
  }

  @Post('keys')
  async create(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const seller = sellerOf(req);
    const name = formString(body.name);
    const scopes = formList(body.scopes);
    if (!name) return this.page(req, res, { error: 'Give the key a name.', form: { name, scopes } }, 422);
    try {
      const { apiKey, token } = await this.keys.create({ ...seller, name, scopes });
      // Shown in this response only; nothing but its hash is kept.
      await this.page(req, res, { created: { name: apiKey.name, token } });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await this.page(req, res, { error: Object.values(error.errors).flat().join(' '), form: { name, scopes } }, 422);
    }
  }

  @Get('keys/:id/revoke')
  async confirmRevoke(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const { storeId } = sellerOf(req);
    const keyId = parseIntId(id);
    const key =
      keyId === null ? undefined : (await this.keys.list(storeId)).find((k) => k.id === keyId && !k.revokedAt);
    if (!key) throw new NotFoundError();
    this.views.confirm(req, res, {
      title: 'Revoke API key',
      message: `Revoke “${key.name}”? Every request with it fails from now on; this cannot be undone.`,
      detail: `${key.prefix}…`,
      action: this.views.url(`/settings/api/keys/${key.id}/revoke`),
      button: 'Revoke key',
      cancel: this.views.url('/settings/api'),
    });
  }

  @Post('keys/:id/revoke')
  async revoke(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const { storeId } = sellerOf(req);
    const keyId = parseIntId(id);
    if (keyId === null || !(await this.keys.revoke(storeId, keyId))) throw new NotFoundError();
    res.redirect(this.views.url('/settings/api'), 303);
  }

  private async page(
    req: FastifyRequest,
    res: FastifyReply,
    data: Record<string, unknown>,
    status = 200,
  ): Promise<void> {
    const { storeId } = sellerOf(req);
    const keys = await this.keys.list(storeId);
    this.views.render(
      req,
      res,
      'api-keys',
      {
        title: 'API keys',
        keys,
        allScopes: this.scopes.all(),
        descriptions: Object.fromEntries(this.scopes.all().map((s) => [s, this.scopes.describe(s)])),
        form: { name: '', scopes: [] },
        ...data,
      },
      status,
    );
  }
}
