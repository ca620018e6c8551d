import { Body, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { ConflictError } from '../../../common/errors/app-error';
import { Clock, CLOCK } from '../../../common/time';
import { centsToDecimal, toCents } from '../../../common/money';
import { ProductsService } from '../../catalog';
import {
  CurrentSeller,
  DashboardPages,
  fieldErrorsOf,
  formList,
  formMoney,
  formNumber,
  FormProblem,
  formString,
  pageNotice,
  SellerSession,
  validateForm,
  ViewsService,
  dashboardPage,
} from '../../identity';
import { parseDateTime } from '../discount-input';
import { toDiscountDto } from '../discount.mapper';
import { DiscountsService } from '../discounts.service';
import { CreateDiscountDto } from '../dto/create-discount.dto';
import { UpdateDiscountDto } from '../dto/update-discount.dto';

type Form = Record<string, unknown>;
type Errors = Record<string, string[]>;

const PER_PAGE = 20;

interface DiscountForm {
  code: string;
  type: string;
  value: string;
  status: string;
  product_ids: string[];
  uses_limit: string;
  single_use: boolean;
  expires_at: string;
}

const EMPTY: DiscountForm = {
  code: '',
  type: 'percent',
  value: '',
  status: 'active',
  product_ids: [],
  uses_limit: '',
  single_use: false,
  expires_at: '',
};

/**
 * Dashboard → Discounts: every field of a coupon, its uses and what is left, through the API's DTOs
 * and `DiscountsService` (same rules and messages); deleting one is confirmed first.
 */
@DashboardPages('discounts')
export class DiscountsPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly discounts: DiscountsService,
    private readonly products: ProductsService,
    private readonly views: ViewsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() res: FastifyReply, @CurrentSeller() { storeId }: SellerSession) {
    const page = dashboardPage(req.query, PER_PAGE);
    const [[discounts, total], currency] = await Promise.all([
      this.discounts.list(storeId, page),
      this.products.currencyOf(storeId),
    ]);
    const query = req.query as Form;
    const body = this.eta.render('discounts', {
      ...this.views.locals(req),
      discounts: discounts.map(toDiscountDto),
      // An active coupon past its `expires_at` takes no order: the list says so beside its status.
      now: this.clock.now().getTime(),
      currency,
      total,
      page: page.page,
      lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
      pageNotice: pageNotice(page.asked),
      notice: query.deleted ? 'Discount deleted.' : null,
    });
    this.views.renderContent(req, res, 'Discounts', body);
  }

  @Get('new')
  async newForm(@Req() req: FastifyRequest, @Res() res: FastifyReply, @CurrentSeller() { storeId }: SellerSession) {
    await this.formPage(req, res, storeId, { discount: null, form: EMPTY, errors: {} });
  }

  @Post('new')
  async create(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Form,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const form = readForm(body);
    const checked = await validateForm(CreateDiscountDto, toInput(form, null));
    let errors: Errors | null = checked.errors;
    if (!errors) {
      try {
        const discount = await this.discounts.create(storeId, checked.dto!);
        return res.redirect(this.views.url(`/discounts/${discount.id}?created=1`), 303);
      } catch (error) {
        errors = formErrorsOf(error);
      }
    }
    await this.formPage(req, res, storeId, { discount: null, form, errors }, 422);
  }

  @Get(':id')
  async show(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const discount = toDiscountDto(await this.discounts.get(storeId, id));
    const query = req.query as Form;
    await this.formPage(req, res, storeId, {
      discount,
      form: formOf(discount),
      errors: {},
      notice: query.created ? 'Discount created.' : query.saved ? 'Changes saved.' : null,
    });
  }

  @Post(':id')
  async update(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @Body() body: Form,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const discount = toDiscountDto(await this.discounts.get(storeId, id));
    const form = readForm(body);
    // The edit form always shows the code and the value: left empty, each is required.
    const checked = await validateForm(UpdateDiscountDto, toInput(form, discount), { required: ['code', 'value'] });
    let errors: Errors | null = checked.errors;
    if (!errors) {
      try {
        await this.discounts.update(storeId, String(discount.id), checked.dto!);
        return res.redirect(this.views.url(`/discounts/${discount.id}?saved=1`), 303);
      } catch (error) {
        errors = formErrorsOf(error);
      }
    }
    await this.formPage(req, res, storeId, { discount, form, errors }, 422);
  }

  @Get(':id/delete')
  async confirmDelete(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const discount = await this.discounts.get(storeId, id);
    this.views.confirm(req, res, {
      title: 'Delete discount',
      message: `Delete the discount ${discount.code}? Customers can no longer use it; orders that used it keep it. This cannot be undone.`,
      action: this.views.url(`/discounts/${discount.id}/delete`),
      button: 'Delete discount',
      cancel: this.views.url(`/discounts/${discount.id}`),
    });
  }

  @Post(':id/delete')
  async remove(@Res() res: FastifyReply, @Param('id') id: string, @CurrentSeller() { storeId }: SellerSession) {
    await this.discounts.delete(storeId, id);
    res.redirect(this.views.url('/discounts?deleted=1'), 303);
  }

  private async formPage(
    req: FastifyRequest,
    res: FastifyReply,
    storeId: number,
    data: Record<string, unknown>,
    status = 200,
  ): Promise<void> {
    const [[products], currency] = await Promise.all([
      this.products.list(storeId, { page: 1, perPage: 100, offset: 0 }),
      this.products.currencyOf(storeId),
    ]);
    const discount = data.discount as { code: string } | null;
    const body = this.eta.render('discount', {
      ...this.views.locals(req),
      products: products.map((p) => ({ id: p.id, name: p.name })),
      currency,
      notice: null,
      ...data,
    });
    this.views.renderContent(req, res, discount ? `Discount ${discount.code}` : 'New discount', body, status);
  }
}

/** A service's field error, or the duplicate code (409) shown beside the code. */
function formErrorsOf(error: unknown): Errors {
  if (error instanceof ConflictError) return { code: [error.message] };
  const errors = fieldErrorsOf(error);
  if (!errors) throw error;
  return errors;
}

function readForm(body: Form): DiscountForm {
  return {
    code: formString(body?.code),
    type: formString(body?.type) || 'percent',
    value: formString(body?.value),
    status: formString(body?.status) || 'active',
    product_ids: formList(body?.product_ids),
    uses_limit: formString(body?.uses_limit),
    single_use: body?.single_use === 'on',
    expires_at: formString(body?.expires_at),
  };
}

/**
 * The form as the API's body (`discount`: the one being edited, null on create). The value is
 * money or a percent, either with a decimal comma. An empty limit clears it on update (unlimited);
 * the expiry is a date (see {@link expiryOf}), empty for never.
 */
function toInput(form: DiscountForm, discount: ReturnType<typeof toDiscountDto> | null): Form {
  const input: Form = {
    code: form.code,
    type: form.type,
    value: formMoney(form.value),
    status: form.status,
    product_ids: form.product_ids.map((id) => formNumber(id)),
    single_use: form.single_use,
  };
  const limit = formNumber(form.uses_limit, discount ? null : undefined);
  if (limit !== undefined) input.uses_limit = limit;
  // The date the form showed, sent back as it was: the stored instant stays (one the API set to a time of day too).
  if (discount && form.expires_at === dateOf(discount.expires_at)) return input;
  if (form.expires_at) input.expires_at = expiryOf(form.expires_at);
  else input.never_expires = true;
  return input;
}

/**
 * The form's expiry is a date (`<input type="date">`): the coupon works through that whole day in
 * UTC, so it expires at its last second, 23:59:59Z (the page says so beside the field). The API's
 * own `expires_at` rules (a future instant) then apply as they are.
 */
function expiryOf(date: string): string | FormProblem {
  const instant = `${date}T23:59:59Z`;
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && parseDateTime(instant) ? instant : EXPIRY_DATE;
}

const EXPIRY_DATE = new FormProblem((field) => `${field} must be a date, for example 2027-12-31.`);

/** The UTC day of a stored expiry, as the date box shows it. */
function dateOf(expiresAt: string | null): string {
  return expiresAt ? expiresAt.slice(0, 10) : '';
}

function formOf(discount: ReturnType<typeof toDiscountDto>): DiscountForm {
  return {
    code: discount.code,
    type: discount.type,
    // Exact decimal text (two places) through cents, not a float's rounding: a fixed discount is money.
    value: centsToDecimal(toCents(discount.value)),
    status: discount.status,
    product_ids: discount.product_ids.map(String),
    uses_limit: discount.uses_limit === null ? '' : String(discount.uses_limit),
    single_use: discount.single_use,
    expires_at: dateOf(discount.expires_at),
  };
}
