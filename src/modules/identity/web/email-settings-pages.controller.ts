import { Body, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../common/errors/app-error';
import { SellersService } from '../sellers/sellers.service';
import { ViewsService } from './views.service';
import { sellerOf } from './web-auth';
import { DashboardPages } from './dashboard-pages';

/** Settings → Emails: the store's "Email my customers" switch (README, *Customer emails*). */
@DashboardPages('settings/emails')
export class EmailSettingsPagesController {
  constructor(
    private readonly sellers: SellersService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async show(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Query('saved') saved?: string): Promise<void> {
    const { storeId } = sellerOf(req);
    const store = await this.sellers.findStore(storeId);
    if (!store) throw new NotFoundError();
    this.views.render(req, res, 'email-settings', { title: 'Emails', store, saved: saved === '1' });
  }

  /** An unchecked checkbox is absent from the form: absent means off. */
  @Post()
  async save(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const { storeId } = sellerOf(req);
    await this.sellers.setEmailCustomers(storeId, body?.email_customers === 'on' || body?.email_customers === 'true');
    res.redirect(this.views.url('/settings/emails?saved=1'), 303);
  }
}
