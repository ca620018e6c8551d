import { Body, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SellersService } from '../sellers/sellers.service';
import { CurrentSeller, DashboardPages } from './dashboard-pages';
import { fieldErrorsOf } from './form-validation';
import { ViewsService } from './views.service';
import { sessionOf, type SellerSession } from './web-auth';

/**
 * Settings → Password: the current password, then the new one (at least 8 characters). The
 * seller's other dashboard sessions are logged out (identity's README, *Password reset*).
 */
@DashboardPages('settings/password')
export class PasswordPagesController {
  constructor(
    private readonly sellers: SellersService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  show(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    const saved = (req.query as Record<string, unknown>).saved === '1';
    this.views.render(req, res, 'password', { title: 'Password', errors: {}, saved });
  }

  @Post()
  async change(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
    @CurrentSeller() { sellerId }: SellerSession,
  ): Promise<void> {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    try {
      // The seller's other sessions end; this one stays logged in.
      await this.sellers.changePassword(
        sellerId,
        text(body?.current_password),
        text(body?.new_password),
        sessionOf(req)?.id,
      );
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (!errors) throw error;
      return this.views.render(req, res, 'password', { title: 'Password', errors, saved: false }, 422);
    }
    res.redirect(this.views.url('/settings/password?saved=1'), 303);
  }
}
