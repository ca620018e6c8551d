import { Inject, Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { ConfirmPage, TEMPLATE_HELPERS } from './format';
import { sectionOf } from './sections';
import { csrfToken } from './sessions/csrf';
import { WebSessionService } from './sessions/web-session.service';
import { loadedSessionOf, safeNext, SellerRequest, sessionOf } from './web-auth';

/** A link of an error page back to where the seller was. */
export interface BackLink {
  href: string;
  label: string;
}

/**
 * Renders the dashboard's eta templates (one layout) with what every page needs: the web surface's
 * path for links and the session's CSRF token for forms.
 */
@Injectable()
export class ViewsService {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });
  readonly webPath: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: WebSessionService,
  ) {
    this.webPath = config.paths.web;
  }

  /** A path on the web surface, for links and redirects. */
  url(path: string): string {
    return `${this.webPath}${path}` || '/';
  }

  /** What a template of another module needs to build links and forms: `web`, `csrf`, `time`. */
  locals(req: FastifyRequest): { web: string; csrf: string } & typeof TEMPLATE_HELPERS {
    return { web: this.webPath, csrf: sessionOf(req) ? csrfToken(req) : '', ...TEMPLATE_HELPERS };
  }

  render(req: FastifyRequest, res: FastifyReply, view: string, data: Record<string, unknown> = {}, status = 200): void {
    // As loaded: a page about a session that could not be read (an outage) renders logged out.
    const session = loadedSessionOf(req);
    const html = this.eta.render(view, {
      web: this.webPath,
      csrf: session ? csrfToken(req) : '',
      loggedIn: Boolean(session?.sellerId),
      // The "Test mode" switch and banner of the layout, and where the switch brings the seller back.
      testMode: Boolean(session?.sellerId && session.storeId && session.testStoreId),
      // The navigation's "Review" link (identity's README, *Operators*), as `SessionGuard` found the role.
      operator: (req as SellerRequest).seller?.operator ?? false,
      here: req.method === 'GET' ? (safeNext(req.url, this.webPath) ?? '') : '',
      ...TEMPLATE_HELPERS,
      ...data,
    });
    void res.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
  }

  /**
   * The dashboard's 404 page, as for an unknown path: also what a page answers to a seller it is not
   * for (the review pages to a non-operator), so that they cannot tell it exists.
   */
  notFound(req: FastifyRequest, res: FastifyReply): void {
    this.render(
      req,
      res,
      'error',
      {
        title: 'Page not found',
        message: 'There is no page at this address.',
        back: { href: this.url('/'), label: 'Back to the dashboard' },
      },
      404,
    );
  }

  /**
   * An action the service refused (an order no longer approved, a plan with sales): a page that
   * says why, with a link back to what it was about. A page of its own rather than the form again
   * when the form no longer applies.
   */
  refused(
    req: FastifyRequest,
    res: FastifyReply,
    page: { title?: string; message: string; back: BackLink; status: number },
  ): void {
    const { title = 'Request refused', message, back, status } = page;
    this.render(req, res, 'error', { title, message, back }, status);
  }

  /**
   * Where an error page of this address links back to: its section's list (a product's page to
   * Products), else the dashboard's home.
   */
  backFrom(req: FastifyRequest): BackLink {
    const section = sectionOf(req.url, this.webPath);
    return section
      ? { href: section.href, label: `Back to ${section.label}` }
      : { href: this.url('/'), label: 'Back to the dashboard' };
  }

  /**
   * Post/redirect/get: what a form's POST has to show (a new secret, a refusal's messages) is kept
   * in the session for the next page only, then the browser is sent there (303). Reloading that
   * page shows it no more and posts nothing again. `secret`: sealed in the session
   * (`WebSessionService.seal`), never stored in clear.
   */
  async redirectWithFlash(
    req: FastifyRequest,
    res: FastifyReply,
    path: string,
    flash: { key: string; value: unknown; secret?: boolean },
  ): Promise<void> {
    const session = sessionOf(req);
    if (session) {
      const text = JSON.stringify(flash.value);
      const stored = flash.secret ? `${SEALED}${this.sessions.seal(text)}` : `${PLAIN}${text}`;
      session.flash = { ...session.flash, [flash.key]: stored };
      // Saved before the redirect, so the page it leads to finds it.
      await new Promise<void>((resolve, reject) => session.save((error) => (error ? reject(error) : resolve())));
    }
    res.redirect(this.url(path), 303);
  }

  /** What {@link redirectWithFlash} left under `key`, once: taken out of the session as it is read. */
  takeFlash<T>(req: FastifyRequest, key: string): T | undefined {
    const session = sessionOf(req);
    const stored = session?.flash?.[key];
    if (!session || stored === undefined) return undefined;
    const rest = { ...session.flash };
    delete rest[key];
    // The session is saved with the page (express-session saves a changed session at the response's end).
    session.flash = Object.keys(rest).length ? rest : undefined;
    const text = stored.startsWith(SEALED)
      ? this.sessions.open(stored.slice(SEALED.length))
      : stored.slice(PLAIN.length);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  /**
   * The confirmation step of a destructive action: a page whose only form POSTs it. It works
   * without JavaScript (the dashboard runs none) and nothing happens on a mistaken click.
   */
  confirm(req: FastifyRequest, res: FastifyReply, page: ConfirmPage): void {
    this.render(req, res, 'confirm', { ...page });
  }

  /**
   * A page whose content another module rendered from its own templates, inside the dashboard's
   * layout (so its header, stylesheet and CSRF token stay in one place).
   */
  renderContent(req: FastifyRequest, res: FastifyReply, title: string, body: string, status = 200): void {
    this.render(req, res, 'page', { title, body }, status);
  }
}

/** How a flash value is kept in the session: sealed (a secret) or as JSON. */
const SEALED = 'sealed:';
const PLAIN = 'plain:';
