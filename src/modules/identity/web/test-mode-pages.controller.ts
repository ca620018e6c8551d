import { Body, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StoreModes } from '../sellers/store-modes.service';
import { CurrentSeller, DashboardPages } from './dashboard-pages';
import { sectionOf } from './sections';
import { ViewsService } from './views.service';
import { safeNext, SellerSession, sessionOf } from './web-auth';

/**
 * The dashboard's "Test mode" switch (README, *Test mode*): on, every page of the session shows and
 * changes the store's test side (made on first use) under a banner, and new API keys are test keys;
 * off, the live store again. The switch is the session's, not the store's.
 */
@DashboardPages('test-mode')
export class TestModePagesController {
  constructor(
    private readonly modes: StoreModes,
    private readonly views: ViewsService,
  ) {}

  /**
   * `test=on` or `test=off`; back to the section of `next` (a dashboard path): its list, since the
   * record or filtered list the seller was on belongs to the mode just left; home otherwise.
   */
  @Post()
  async toggle(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
    @CurrentSeller() seller: SellerSession,
  ): Promise<void> {
    const session = sessionOf(req)!;
    if (body?.test === 'on') session.testStoreId = (await this.modes.storeFor(seller.liveStoreId, 'test')).id;
    else delete session.testStoreId;
    await new Promise<void>((resolve, reject) => session.save((error) => (error ? reject(error) : resolve())));
    const next = safeNext(body?.next, this.views.webPath);
    const section = next === undefined ? null : sectionOf(next, this.views.webPath);
    res.redirect(section?.href ?? next ?? this.views.url('/'), 303);
  }
}
