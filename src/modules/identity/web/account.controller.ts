import { Body, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError, TooManyRequestsError } from '../../../common/errors/app-error';
import { isCurrencyCode } from '../sellers/currencies';
import { SellersService } from '../sellers/sellers.service';
import { lockoutMessage, LoginThrottleService } from './login-throttle.service';
import { ViewsService } from './views.service';
import { formString, safeNext, sessionOf } from './web-auth';
import { AnonymousPage, DashboardPages } from './dashboard-pages';

/** Sign-up, login and logout: the dashboard pages open without a session. */
@DashboardPages()
export class AccountController {
  constructor(
    private readonly sellers: SellersService,
    private readonly throttle: LoginThrottleService,
    private readonly views: ViewsService,
  ) {}

  @AnonymousPage()
  @Get('signup')
  signupForm(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.views.render(req, res, 'signup', { title: 'Create your store', form: { currency: 'MZN' }, errors: {} });
  }

  @AnonymousPage()
  @Post('signup')
  async signup(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const form = {
      name: formString(body.name),
      email: formString(body.email),
      store_name: formString(body.store_name),
      currency: (formString(body.currency) || 'MZN').toUpperCase(),
    };
    const password = typeof body.password === 'string' ? body.password : '';
    const errors = signupErrors(form, password);
    if (!Object.keys(errors).length) {
      try {
        const { seller, store } = await this.sellers.register({
          name: form.name,
          email: form.email,
          password,
          storeName: form.store_name,
          currency: form.currency,
        });
        await startSession(req, seller.id, store.id);
        res.redirect(this.views.url('/'), 303);
        return;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        errors.email = error.message;
      }
    }
    this.views.render(req, res, 'signup', { title: 'Create your store', form, errors }, 422);
  }

  @AnonymousPage()
  @Get('login')
  loginForm(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Query('next') next?: string,
    @Query('reset') reset?: string,
  ): void {
    this.views.render(req, res, 'login', {
      title: 'Log in',
      email: '',
      next: safeNext(next, this.views.webPath) ?? '',
      // After a password reset (password-reset-pages.controller.ts).
      notice: reset === '1' ? 'Your password is changed. Log in with the new one.' : '',
    });
  }

  @AnonymousPage()
  @Post('login')
  async login(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const email = formString(body.email).toLowerCase();
    const password = typeof body.password === 'string' ? body.password : '';
    const next = safeNext(body.next, this.views.webPath);
    const ip = req.ip ?? 'unknown';
    const page = (error: string, status: number) =>
      this.views.render(req, res, 'login', { title: 'Log in', email, next: next ?? '', error }, status);
    try {
      await this.throttle.check(email, ip);
    } catch (error) {
      if (!(error instanceof TooManyRequestsError)) throw error;
      res.header('Retry-After', String(error.retryAfterSeconds));
      return page(lockoutMessage(error.retryAfterSeconds), 429);
    }
    const seller = email && password ? await this.sellers.verifyCredentials(email, password) : null;
    const store = seller ? await this.sellers.findStoreOfSeller(seller.id) : null;
    if (!seller || !store) {
      await this.throttle.failed(email, ip);
      return page('Wrong email or password.', 401);
    }
    await this.throttle.succeeded(email, ip);
    await startSession(req, seller.id, store.id);
    res.redirect(next ?? this.views.url('/'), 303);
  }

  @AnonymousPage()
  @Post('logout')
  async logout(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const session = sessionOf(req);
    if (session)
      await new Promise<void>((resolve, reject) => session.destroy((error) => (error ? reject(error) : resolve())));
    res.redirect(this.views.url('/login'), 303);
  }
}

/** A new session id on login, so a session fixed before login is worthless after it. */
function startSession(req: FastifyRequest, sellerId: number, storeId: number): Promise<void> {
  const session = sessionOf(req);
  if (!session) return Promise.reject(new Error('Dashboard route without WebSessionMiddleware'));
  return new Promise((resolve, reject) =>
    session.regenerate((error) => {
      if (error) return reject(error);
      // regenerate() puts a new session object on the request.
      const fresh = sessionOf(req)!;
      fresh.sellerId = sellerId;
      fresh.storeId = storeId;
      fresh.save((saveError) => (saveError ? reject(saveError) : resolve()));
    }),
  );
}

/**
 * The sign-up form's messages, worded with its labels: a field left empty is only `<label> is
 * required.`; its other rule is said only of what was typed. The currency, `MZN` when left empty,
 * must be an ISO 4217 code.
 */
function signupErrors(
  form: { name: string; email: string; store_name: string; currency: string },
  password: string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.name) errors.name = 'Your name is required.';
  if (!form.email) errors.email = 'Email is required.';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email)) errors.email = 'Enter a valid email address.';
  if (!password) errors.password = 'Password is required.';
  else if (password.length < 8) errors.password = 'Use at least 8 characters.';
  if (!form.store_name) errors.store_name = 'Store name is required.';
  if (!isCurrencyCode(form.currency)) errors.currency = CURRENCY_MESSAGE;
  return errors;
}

/** The sign-up form's word for a currency that is not an ISO 4217 code. */
const CURRENCY_MESSAGE = 'Currency must be an ISO 4217 code, for example MZN, USD or EUR.';
