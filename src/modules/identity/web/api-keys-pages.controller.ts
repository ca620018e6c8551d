import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ScopeRegistry } from '../scopes/scope-registry';
import { ViewsService } from './views.service';
import { formList, formString, sellerOf } from './web-auth';
import { DashboardPages } from './dashboard-pages';
import { parseIntId } from '../../../common/http/path-id';

interface KeyForm {
  name: string;
  scopes: string[];
}

/** What a key's creation leaves in the session for the list (`ViewsService.redirectWithFlash`). */
const CREATED = 'api-key-created';
const REFUSED = 'api-key-refused';

/** Settings → API: the seller's API keys (README, *Operating it*). */
@DashboardPages('settings/api')
export class ApiKeysPagesController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly views: ViewsService,
    private readonly scopes: ScopeRegistry,
  ) {}

  /** The list, with what the last POST left to show once: the new key's token, or why none was made. */
  @Get()
  async list(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const created = this.views.takeFlash<{ name: string; token: string }>(req, CREATED);
    const refused = this.views.takeFlash<{ errors: Record<string, string[]>; form: KeyForm }>(req, REFUSED);
    await this.page(req, res, created ? { created } : (refused ?? {}));
  }

  @Post('keys')
  async create(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const seller = sellerOf(req);
    const form: KeyForm = { name: formString(body.name), scopes: formList(body.scopes) };
    // Post/redirect/get: the list shows the outcome once, so a reload neither makes another key
    // nor shows the token again.
    const refuse = (errors: Record<string, string[]>) =>
      this.views.redirectWithFlash(req, res, '/settings/api', { key: REFUSED, value: { errors, form } });
    if (!form.name) return refuse({ name: ['Name is required.'] });
    try {
      const { apiKey, token } = await this.keys.create({ ...seller, ...form });
      // Nothing but its hash is kept: the token is in the session, sealed, until the list shows it.
      await this.views.redirectWithFlash(req, res, '/settings/api', {
        key: CREATED,
        value: { name: apiKey.name, token },
        secret: true,
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await refuse(error.errors as Record<string, string[]>);
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
        errors: {},
        ...data,
      },
      status,
    );
  }
}
