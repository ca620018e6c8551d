import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { NotFoundError } from '../../../common/errors/app-error';
import {
  CurrentSeller,
  DashboardPages,
  dashboardPage,
  formString,
  pageNotice,
  SellerSession,
  validateForm,
  ViewsService,
} from '../../identity';
import { toProductDto } from '../products/product.mapper';
import { NotPendingReviewError, PendingReview, ProductsService, ReviewDecision } from '../products/products.service';
import { REVIEW_REASON_MAX, ReviewDecisionForm } from './review.form';

const PER_PAGE = 20;

/** What each decision is called on the page and in the notice after it. */
const DECISIONS: Record<ReviewDecision, { title: string; button: string; done: string }> = {
  approve: { title: 'Approve product', button: 'Approve product', done: 'approved' },
  reject: { title: 'Reject product', button: 'Reject product', done: 'rejected' },
};

/**
 * Dashboard → Review (catalog's README, *Review*): operators only (`operator:grant`); anyone else gets
 * the 404 page of an unknown address. The queue of products pending review across stores, and each
 * decision on a confirmation page of its own (a rejection with its reason), recorded by the same
 * `ProductsService.review` as `product:review`, which emails the seller after commit.
 */
@DashboardPages('review')
export class ReviewPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly products: ProductsService,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async queue(@Req() req: FastifyRequest, @Res() res: FastifyReply, @CurrentSeller() seller: SellerSession) {
    if (!seller.operator) return this.views.notFound(req, res);
    const page = dashboardPage(req.query, PER_PAGE);
    const [items, total] = await this.products.pendingReview(page);
    const body = this.eta.render('review', {
      ...this.views.locals(req),
      items: items.map(view),
      total,
      page: page.page,
      lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
      pageNotice: pageNotice(page.asked),
      notice: await this.noticeOf(req.query as Record<string, unknown>),
    });
    this.views.renderContent(req, res, 'Review', body);
  }

  @Get(':pid/:decision')
  async confirm(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Param('decision') decision: string,
    @CurrentSeller() seller: SellerSession,
  ) {
    if (!seller.operator) return this.views.notFound(req, res);
    const item = await this.products.forReview(productRef(pid));
    const chosen = decisionOf(decision);
    if (item.product.reviewStatus !== 'pending') return this.notPending(req, res, item);
    this.renderDecision(req, res, item, chosen, { reason: '' }, {});
  }

  @Post(':pid/:decision')
  async decide(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Param('decision') decision: string,
    @Body() body: Record<string, unknown>,
    @CurrentSeller() seller: SellerSession,
  ) {
    if (!seller.operator) return this.views.notFound(req, res);
    const item = await this.products.forReview(productRef(pid));
    const chosen = decisionOf(decision);
    const form = { reason: formString(body?.reason) };
    const checked = await validateForm(ReviewDecisionForm, { decision: chosen, reason: form.reason });
    if (checked.errors) return this.renderDecision(req, res, item, chosen, form, checked.errors, 422);
    try {
      await this.products.review(item.product.pid, chosen, form.reason || null);
    } catch (error) {
      if (!(error instanceof NotPendingReviewError)) throw error;
      return this.notPending(req, res, await this.products.forReview(item.product.pid));
    }
    const back = new URLSearchParams({ reviewed: item.product.pid });
    const page = formString(body?.page);
    if (/^\d{1,6}$/.test(page) && page !== '1') back.set('page', page);
    res.redirect(this.views.url(`/review?${back.toString()}`), 303);
  }

  private renderDecision(
    req: FastifyRequest,
    res: FastifyReply,
    item: PendingReview,
    decision: ReviewDecision,
    form: { reason: string },
    errors: Record<string, string[]>,
    status = 200,
  ): void {
    const page =
      formString((req.query as Record<string, unknown>)?.page) ||
      formString((req.body as Record<string, unknown>)?.page);
    const body = this.eta.render('review-decision', {
      ...this.views.locals(req),
      item: view(item),
      decision,
      labels: DECISIONS[decision],
      form,
      errors,
      maxReason: REVIEW_REASON_MAX,
      page: /^\d{1,6}$/.test(page) ? page : '',
    });
    this.views.renderContent(req, res, `${DECISIONS[decision].title}: ${item.product.name}`, body, status);
  }

  /** Someone decided first (another operator, the CLI): say so, change nothing. */
  private notPending(req: FastifyRequest, res: FastifyReply, item: PendingReview): void {
    this.views.render(
      req,
      res,
      'error',
      {
        title: 'Already reviewed',
        message: `“${item.product.name}” (${item.product.pid}) is no longer pending review: it is ${item.product.reviewStatus} now. Nothing was changed.`,
        back: { href: this.views.url('/review'), label: 'Back to the review queue' },
      },
      409,
    );
  }

  /** The notice after a decision: `?reviewed=<pid>` names the product and what it is now. */
  private async noticeOf(query: Record<string, unknown>): Promise<string | null> {
    const pid = formString(query?.reviewed);
    if (!pid || !/^[\w-]{1,64}$/.test(pid)) return null;
    const item = await this.products.forReview(pid).catch(() => null);
    if (!item || item.product.reviewStatus === 'pending') return null;
    return `“${item.product.name}” is ${item.product.reviewStatus}. The seller is emailed the decision.`;
  }
}

/** A queue entry as the templates show it: the product as the API shows it, its store and file count. */
function view(item: PendingReview) {
  const currency = item.store?.currency ?? '';
  return {
    product: toProductDto(item.product, currency),
    store: item.store,
    fileCount: item.fileCount,
    submittedAt: item.product.updatedAt,
  };
}

function decisionOf(value: string): ReviewDecision {
  if (value !== 'approve' && value !== 'reject') throw new NotFoundError();
  return value;
}

function productRef(value: string): string {
  if (!/^[\w-]{1,64}$/.test(value)) throw new NotFoundError();
  return value;
}
