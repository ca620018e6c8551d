import { Body, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { SellersService } from '../sellers/sellers.service';
import { CurrentSeller, DashboardPages } from './dashboard-pages';
import { fieldErrorsOf } from './form-validation';
import { lockoutMessage, LoginThrottleService } from './login-throttle.service';
import { ViewsService } from './views.service';
import { sessionOf, type SellerSession } from './web-auth';

/**
 * Settings → Password: the current password, then the new one (at least 8 characters). The
 * seller's other dashboard sessions are logged out; wrong current passwords are limited per seller
 * as logins are (identity's README, *Password reset*).
 */
@DashboardPages('settings/password')
export class PasswordPagesController {
  constructor(
    private readonly sellers: SellersService,
    private readonly throttle: LoginThrottleService,
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
    const page = (errors: Record<string, string[]>, status: number) =>
      this.views.render(req, res, 'password', { title: 'Password', errors, saved: false }, status);
    try {
      await this.throttle.passwordChangeGuess(sellerId);
    } catch (error) {
      if (!(error instanceof TooManyRequestsError)) throw error;
      // Locked out, the password is not even checked: a right one is refused too.
      res.header('Retry-After', String(error.retryAfterSeconds));
      return page({ current_password: [lockoutMessage(error.retryAfterSeconds)] }, 429);
    }
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
      // Only a wrong current password spends the guess.
      if (!errors.current_password) await this.throttle.passwordChangeGuessRight(sellerId);
      return page(errors, 422);
    }
    await this.throttle.passwordChanged(sellerId);
    res.redirect(this.views.url('/settings/password?saved=1'), 303);
  }
}
