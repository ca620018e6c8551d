import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { OAuthAppsService } from '../oauth/oauth-apps.service';
import { ViewsService } from './views.service';
import { formString, liveSession, sellerOf } from './web-auth';
import { DashboardPages } from './dashboard-pages';
import { requireIntId } from '../../../common/http/path-id';

/** A registration or rotation, as the list shows it once. */
interface CreatedApp {
  name: string;
  clientId: string;
  clientSecret: string;
  rotated?: boolean;
}

const CREATED = 'oauth-app-secret';

/** OAuth app registration (README, *Operating it*): client_id and a client_secret shown once. */
@DashboardPages('apps')
export class AppsPagesController {
  constructor(
    private readonly apps: OAuthAppsService,
    private readonly views: ViewsService,
  ) {}

  /** The list, with the client secret the last registration or rotation left to show once. */
  @Get()
  async list(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const created = this.views.takeFlash<CreatedApp>(req, CREATED);
    await this.page(req, res, created ? { created } : {});
  }

  @Post()
  async create(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const seller = liveSession(sellerOf(req));
    const form = { name: formString(body.name), redirect_uris: formString(body.redirect_uris) };
    // The form's own words for what is left empty: one "is required." each, nothing else.
    const missing: Record<string, string[]> = {};
    if (!form.name) missing.name = ['Name is required.'];
    if (!form.redirect_uris) missing.redirect_uris = ['A redirect URI is required.'];
    if (Object.keys(missing).length) return this.page(req, res, { errors: missing, form }, 422);
    try {
      const { app, clientSecret } = await this.apps.register({
        ...seller,
        name: form.name,
        redirectUris: form.redirect_uris.split(/\r?\n/),
      });
      await this.showSecretOnce(req, res, { name: app.name, clientId: app.clientId, clientSecret });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await this.page(req, res, { errors: error.errors, form }, 422);
    }
  }

  @Get(':id/deactivate')
  async confirmDeactivate(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const app = await this.appOf(req, id);
    this.views.confirm(req, res, {
      title: 'Deactivate app',
      message: `Deactivate “${app.name}”? Its tokens stop working and sellers cannot authorize it until you activate it again.`,
      detail: app.clientId,
      action: this.views.url(`/apps/${app.id}/deactivate`),
      button: 'Deactivate app',
      cancel: this.views.url('/apps'),
    });
  }

  @Get(':id/rotate-secret')
  async confirmRotate(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const app = await this.appOf(req, id);
    this.views.confirm(req, res, {
      title: 'Rotate client secret',
      message: `Rotate the secret of “${app.name}”? The current secret stops working at once; the new one is shown once.`,
      detail: app.clientId,
      action: this.views.url(`/apps/${app.id}/rotate-secret`),
      button: 'Rotate secret',
      cancel: this.views.url('/apps'),
    });
  }

  @Post(':id/deactivate')
  async deactivate(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    await this.apps.setActive(liveSession(sellerOf(req)).storeId, requireIntId(id), false);
    res.redirect(this.views.url('/apps'), 303);
  }

  @Post(':id/activate')
  async activate(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    await this.apps.setActive(liveSession(sellerOf(req)).storeId, requireIntId(id), true);
    res.redirect(this.views.url('/apps'), 303);
  }

  @Post(':id/rotate-secret')
  async rotateSecret(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('id') id: string): Promise<void> {
    const { app, clientSecret } = await this.apps.rotateSecret(liveSession(sellerOf(req)).storeId, requireIntId(id));
    await this.showSecretOnce(req, res, { name: app.name, clientId: app.clientId, clientSecret, rotated: true });
  }

  /**
   * Post/redirect/get: the list shows the new secret once (sealed in the session until then), so
   * a reload neither registers another app, nor rotates again, nor shows the secret again.
   */
  private showSecretOnce(req: FastifyRequest, res: FastifyReply, created: CreatedApp): Promise<void> {
    return this.views.redirectWithFlash(req, res, '/apps', { key: CREATED, value: created, secret: true });
  }

  private async appOf(req: FastifyRequest, id: string) {
    const { storeId } = liveSession(sellerOf(req));
    const app = (await this.apps.list(storeId)).find((candidate) => candidate.id === requireIntId(id));
    if (!app) throw new NotFoundError();
    return app;
  }

  private async page(
    req: FastifyRequest,
    res: FastifyReply,
    data: Record<string, unknown>,
    status = 200,
  ): Promise<void> {
    const { storeId } = liveSession(sellerOf(req));
    const apps = await this.apps.list(storeId);
    this.views.render(
      req,
      res,
      'apps',
      { title: 'OAuth apps', apps, form: { name: '', redirect_uris: '' }, errors: {}, ...data },
      status,
    );
  }
}
