import { Inject, Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { ConfirmPage, TEMPLATE_HELPERS } from './format';
import { csrfToken } from './sessions/csrf';
import { loadedSessionOf, safeNext, SellerRequest, sessionOf } from './web-auth';

/**
 * Renders the dashboard's eta templates (one layout) with what every page needs: the web surface's
 * path for links and the session's CSRF token for forms.
 */
@Injectable()
export class ViewsService {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });
  readonly webPath: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
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
