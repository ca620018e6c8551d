import { Body, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../../../common/errors/app-error';
import { isStorableText } from '../../../common/http/input-text';
import { PasswordResetService, ResetLinkState } from '../password-reset/password-reset.service';
import { AnonymousPage, DashboardPages } from './dashboard-pages';
import { fieldErrorsOf } from './form-validation';
import { LoginThrottleService } from './login-throttle.service';
import { ViewsService } from './views.service';
import { formString, sessionOf } from './web-auth';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why a link does not open the form, and the status of that page. */
const LINK_PROBLEMS: Record<Exclude<ResetLinkState, 'valid'>, { message: string; status: number }> = {
  used: { message: 'This link has already been used. Ask for a new one if you need it.', status: 410 },
  expired: { message: 'This link has expired: a link works for one hour. Ask for a new one.', status: 410 },
  unknown: {
    message: 'This link is not valid: it may be incomplete, or a newer link replaced it. Ask for a new one.',
    status: 404,
  },
};

/**
 * Forgot password and reset password (identity's README, *Password reset*): anonymous pages. The
 * forgot page answers the same, in the same time, whether or not the address has an account.
 */
@DashboardPages()
export class PasswordResetPagesController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly throttle: LoginThrottleService,
    private readonly views: ViewsService,
  ) {}

  @AnonymousPage()
  @Get('forgot-password')
  forgotForm(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.views.render(req, res, 'forgot-password', { title: 'Forgot password', email: '', errors: {} });
  }

  @AnonymousPage()
  @Post('forgot-password')
  async forgot(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const email = formString(body.email).toLowerCase();
    const page = (data: Record<string, unknown>, status = 200) =>
      this.views.render(req, res, 'forgot-password', { title: 'Forgot password', email, errors: {}, ...data }, status);
    // What the job's JSON and the lookup can carry: no U+0000, no unpaired surrogate, an address's length.
    if (!EMAIL.test(email) || !isStorableText(email) || email.length > 320)
      return page({ errors: { email: ['Enter a valid email address.'] } }, 422);
    try {
      await this.throttle.forgotPassword(email, req.ip ?? 'unknown');
    } catch (error) {
      if (!(error instanceof TooManyRequestsError)) throw error;
      res.header('Retry-After', String(error.retryAfterSeconds));
      const minutes = Math.ceil(error.retryAfterSeconds / 60);
      return page({ error: `Too many reset requests. Try again in ${minutes} minutes.` }, 429);
    }
    await this.resets.request(email);
    page({ sent: true });
  }

  @AnonymousPage()
  @Get('reset-password')
  async resetForm(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Query('token') token?: string): Promise<void> {
    const value = typeof token === 'string' ? token : '';
    const state = await this.resets.stateOf(value);
    if (state !== 'valid') return this.problem(req, res, state);
    this.views.render(req, res, 'reset-password', { title: 'Choose a new password', token: value, errors: {} });
  }

  @AnonymousPage()
  @Post('reset-password')
  async reset(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const token = text(body.token);
    let outcome: ResetLinkState | 'reset';
    try {
      outcome = await this.resets.reset(token, text(body.new_password), text(body.confirm_password));
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (!errors) throw error;
      return this.views.render(req, res, 'reset-password', { title: 'Choose a new password', token, errors }, 422);
    }
    if (outcome !== 'reset') return this.problem(req, res, outcome === 'valid' ? 'unknown' : outcome);
    // Every session of the seller is gone; this browser starts afresh too (whoever it was logged in as).
    await new Promise<void>(
      (resolve, reject) => sessionOf(req)?.regenerate((error) => (error ? reject(error) : resolve())) ?? resolve(),
    );
    res.redirect(this.views.url('/login?reset=1'), 303);
  }

  private problem(req: FastifyRequest, res: FastifyReply, state: Exclude<ResetLinkState, 'valid'>): void {
    const { message, status } = LINK_PROBLEMS[state];
    this.views.render(req, res, 'reset-password', { title: 'Reset link', problem: message }, status);
  }
}
