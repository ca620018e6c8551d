import { Body, Get, Inject, Param, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join } from 'node:path';
import {
  AppError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  UnprocessableError,
} from '../../../common/errors/app-error';
import { centsToDecimal, toCents } from '../../../common/money';
import {
  CurrentSeller,
  DashboardPages,
  fieldErrorsOf,
  formMoney,
  formNumber,
  formOptional,
  formString,
  pageNotice,
  SellerSession,
  validateForm,
  ViewsService,
  dashboardPage,
  StoreModes,
} from '../../identity';
import { buyLinkUrl } from '../../billing';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import {
  FormUploadInterceptor,
  StoredUpload,
  UploadFailure,
  type UploadedFile,
} from '../files/file-upload.interceptor';
import { CreateProductFileDto } from '../files/dto/product-file.dto';
import { BYTES_PER_MB, megabytes } from '../files/product-file.mapper';
import type { ProductFile } from '../files/product-file.entity';
import { ProductFilesService } from '../files/product-files.service';
import { CreatePlanDto } from '../plans/dto/plan.dto';
import { PlansService } from '../plans/plans.service';
import { CreateProductDto, UpdateProductDto } from '../products/dto/product.dto';
import { toProductDto } from '../products/product.mapper';
import { ProductsService } from '../products/products.service';
import { requireIntId } from '../../../common/http/path-id';

type Form = Record<string, unknown>;
type Errors = Record<string, string[]>;

const PER_PAGE = 20;

/** What a refused upload or publish leaves for the product's page, and a refused plan deletion for the plans page. */
const PRODUCT_REFUSED = 'product-refused';
const PLANS_REFUSED = 'plans-refused';

/** The product form's text fields, in the API's names. */
const FIELDS = [
  'name',
  'type',
  'price',
  'description',
  'image_url',
  'sale_page_url',
  'category',
  'subcategory',
  'contact_number',
] as const;

/** Where each of the publish check's `missing_fields` is shown: beside its form field or section. */
const MISSING_AT: Record<string, string> = {
  name: 'name',
  price: 'price',
  sale_page: 'sale_page_url',
  image: 'image_url',
  category: 'category',
  subcategory: 'subcategory',
  contact_number: 'contact_number',
  files: 'files',
  plans: 'plans',
};

/**
 * Dashboard → Products: list, create and edit every field, upload and delete files, a recurring
 * product's plans, and publishing with what is missing named beside each field. Every form goes
 * through the API's DTO and service (same rules, same messages).
 */
@DashboardPages('products')
export class ProductsPagesController {
  private readonly eta = new Eta({ views: join(__dirname, 'views'), cache: true, autoEscape: true });

  constructor(
    private readonly products: ProductsService,
    private readonly files: ProductFilesService,
    private readonly plans: PlansService,
    private readonly views: ViewsService,
    private readonly modes: StoreModes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() res: FastifyReply, @CurrentSeller() { storeId }: SellerSession) {
    const page = dashboardPage(req.query, PER_PAGE);
    const [[products, total], currency] = await Promise.all([
      this.products.list(storeId, page),
      this.products.currencyOf(storeId),
    ]);
    const body = this.eta.render('products', {
      ...this.views.locals(req),
      products: products.map((p) => toProductDto(p, currency)),
      total,
      page: page.page,
      lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
      pageNotice: pageNotice(page.asked),
    });
    this.views.renderContent(req, res, 'Products', body);
  }

  @Get('new')
  async newForm(@Req() req: FastifyRequest, @Res() res: FastifyReply, @CurrentSeller() { storeId }: SellerSession) {
    const currency = await this.products.currencyOf(storeId);
    this.renderForm(req, res, { product: null, form: { type: 'one_time' }, errors: {}, currency });
  }

  @Post('new')
  async create(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Form,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const form = readForm(body);
    const checked = await validateForm(CreateProductDto, toInput(form, undefined));
    const currency = await this.products.currencyOf(storeId);
    if (checked.errors)
      return this.renderForm(req, res, { product: null, form, errors: checked.errors, currency }, 422);
    const product = await this.products.create(storeId, checked.dto);
    res.redirect(this.views.url(`/products/${product.pid}?created=1`), 303);
  }

  @Get(':pid')
  async show(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    // What a refused upload or publish left for this page (they redirect here: post/redirect/get).
    const refused = this.views.takeFlash<Record<string, unknown>>(req, PRODUCT_REFUSED);
    await this.productPage(req, res, storeId, pid, { notice: noticeOf(req.query as Form), ...refused });
  }

  @Post(':pid')
  async update(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Body() body: Form,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const product = await this.products.get(storeId, productRef(pid));
    const form = readForm(body);
    // The edit form always shows the name: left empty, it is required (the API leaves it unchanged).
    const checked = await validateForm(UpdateProductDto, toInput(form, null), { required: ['name'] });
    if (checked.errors) return this.productPage(req, res, storeId, product.pid, { form, errors: checked.errors }, 422);
    try {
      await this.products.update(storeId, product.pid, checked.dto);
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (!errors) throw error;
      return this.productPage(req, res, storeId, product.pid, { form, errors }, 422);
    }
    res.redirect(this.views.url(`/products/${product.pid}?saved=1`), 303);
  }

  @Post(':pid/files')
  @UseInterceptors(FormUploadInterceptor)
  async upload(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Body() body: Form,
    @CurrentSeller() { storeId }: SellerSession,
    @StoredUpload() upload?: UploadedFile,
    @UploadFailure() failure?: AppError,
  ) {
    const product = await this.products.get(storeId, productRef(pid));
    // A refused upload goes back to the product's page with its message: the form's address
    // (`/files?_csrf=…`) is no page to stay on.
    const refuse = (fileErrors: Errors) =>
      this.refuse(req, res, `/products/${product.pid}#files`, PRODUCT_REFUSED, { fileErrors });
    if (failure) return refuse(uploadErrors(failure));
    const name = formOptional(body?.name);
    const checked = await validateForm(CreateProductFileDto, name ? { name } : {});
    let errors: Errors | null = checked.errors;
    if (!errors && !upload) errors = { file: ['Choose a file to upload.'] };
    if (!errors) {
      try {
        await this.files.add(storeId, product.pid, checked.dto!, upload);
        return res.redirect(this.views.url(`/products/${product.pid}?uploaded=1#files`), 303);
      } catch (error) {
        errors = fieldErrorsOf(error);
        if (!errors) throw error;
      }
    }
    await refuse(errors);
  }

  @Get(':pid/files/:id/delete')
  async confirmFileDelete(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const product = await this.products.get(storeId, productRef(pid));
    const file = (await this.files.list(storeId, product.pid)).find((f) => f.id === requireIntId(id));
    if (!file) throw new NotFoundError();
    this.views.confirm(req, res, {
      title: 'Delete file',
      message: `Delete “${file.name}” from ${product.name}? Buyers can no longer download it; this cannot be undone.`,
      action: this.views.url(`/products/${product.pid}/files/${file.id}/delete`),
      button: 'Delete file',
      cancel: this.views.url(`/products/${product.pid}#files`),
    });
  }

  @Post(':pid/files/:id/delete')
  async deleteFile(
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Param('id') id: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const { productPid } = await this.files.delete(storeId, productRef(pid), requireIntId(id));
    res.redirect(this.views.url(`/products/${productPid}?file_deleted=1#files`), 303);
  }

  @Get(':pid/plans')
  async plansPage(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const query = req.query as Form;
    await this.renderPlans(req, res, storeId, pid, {
      notice: query.created ? 'Plan added.' : query.deleted ? 'Plan deleted.' : null,
      ...this.views.takeFlash<Record<string, unknown>>(req, PLANS_REFUSED),
    });
  }

  @Post(':pid/plans')
  async addPlan(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Body() body: Form,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const product = await this.products.get(storeId, productRef(pid));
    const form = {
      name: formString(body.name),
      price: formString(body.price),
      interval: formString(body.interval) || 'month',
      interval_count: formString(body.interval_count) || '1',
    };
    const checked = await validateForm(CreatePlanDto, {
      product_pid: product.pid,
      name: form.name,
      price: formMoney(form.price),
      interval: form.interval,
      interval_count: formNumber(form.interval_count),
    });
    let errors: Errors | null = checked.errors;
    if (!errors) {
      try {
        await this.plans.create(storeId, checked.dto!);
        return res.redirect(this.views.url(`/products/${product.pid}/plans?created=1`), 303);
      } catch (error) {
        errors = fieldErrorsOf(error);
        if (!errors) throw error;
      }
    }
    await this.renderPlans(req, res, storeId, product.pid, { form, errors }, 422);
  }

  @Get(':pid/plans/:planId/delete')
  async confirmPlanDelete(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Param('planId') planId: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const { product, plan } = await this.planOf(storeId, pid, planId);
    this.views.confirm(req, res, {
      title: 'Delete plan',
      message: `Delete the plan “${plan.name}” of ${product.name}? New customers can no longer choose it; this cannot be undone.`,
      detail: plan.planId,
      action: this.views.url(`/products/${product.pid}/plans/${plan.planId}/delete`),
      button: 'Delete plan',
      cancel: this.views.url(`/products/${product.pid}/plans`),
    });
  }

  @Post(':pid/plans/:planId/delete')
  async deletePlan(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @Param('planId') planId: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const { product, plan } = await this.planOf(storeId, pid, planId);
    try {
      await this.plans.delete(storeId, plan.planId);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return this.refuse(req, res, `/products/${product.pid}/plans`, PLANS_REFUSED, { error: error.message });
    }
    res.redirect(this.views.url(`/products/${product.pid}/plans?deleted=1`), 303);
  }

  @Post(':pid/publish')
  async publish(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('pid') pid: string,
    @CurrentSeller() { storeId }: SellerSession,
  ) {
    const product = await this.products.get(storeId, productRef(pid));
    try {
      await this.products.publish(storeId, product.pid);
    } catch (error) {
      // Back to the product's page, which names what is missing beside each field.
      const back = `/products/${product.pid}`;
      if (error instanceof ConflictError)
        return this.refuse(req, res, back, PRODUCT_REFUSED, { publishError: error.message });
      if (!(error instanceof UnprocessableError)) throw error;
      const missing: Record<string, string> = {};
      const fields = (error.extra.missing_fields ?? {}) as Record<string, string>;
      for (const [key, message] of Object.entries(fields)) missing[MISSING_AT[key] ?? key] = message;
      return this.refuse(req, res, back, PRODUCT_REFUSED, { missing, publishError: error.message });
    }
    res.redirect(this.views.url(`/products/${product.pid}?published=1`), 303);
  }

  /**
   * A refused form whose address is no page (an upload, publishing, deleting a plan): back to the
   * page it was on with what to show there once (post/redirect/get).
   */
  private refuse(
    req: FastifyRequest,
    res: FastifyReply,
    path: string,
    key: string,
    shown: Record<string, unknown>,
  ): Promise<void> {
    return this.views.redirectWithFlash(req, res, path, { key, value: shown });
  }

  private async planOf(storeId: number, pid: string, planId: string) {
    const product = await this.products.get(storeId, productRef(pid));
    const plan = await this.plans.findForStore(storeId, productRef(planId));
    if (!plan || plan.productId !== product.id) throw new NotFoundError();
    return { product, plan };
  }

  private async productPage(
    req: FastifyRequest,
    res: FastifyReply,
    storeId: number,
    pid: string,
    data: Record<string, unknown>,
    status = 200,
  ): Promise<void> {
    const [product, currency, testMode] = await Promise.all([
      this.products.get(storeId, productRef(pid)),
      this.products.currencyOf(storeId),
      this.modes.isTest(storeId),
    ]);
    const [files, plans] = await Promise.all([
      this.files.list(storeId, product.pid),
      this.plans.listOfProduct(storeId, product.id),
    ]);
    const dto = toProductDto(product, currency);
    this.renderForm(
      req,
      res,
      {
        product: dto,
        form: formOfProduct(dto),
        errors: {},
        currency,
        files: files.map((file) => ({ ...this.files.toDto(file), sizeLabel: fileSizeLabel(file) })),
        planCount: plans.length,
        missing: {},
        // The reason of the last review decision (catalog's README, *Review*), beside its outcome.
        reviewNote: product.reviewStatus === 'pending' ? null : product.reviewReason,
        // Its buy link sells a live product once review approved it, a test product at once (README, *Buy links*).
        buyLink: {
          url: buyLinkUrl(this.config.urls.pay, product.pid),
          open: testMode || product.reviewStatus === 'approved',
          testMode,
        },
        ...data,
      },
      status,
    );
  }

  private renderForm(req: FastifyRequest, res: FastifyReply, data: Record<string, unknown>, status = 200): void {
    const product = data.product as { name: string } | null;
    const body = this.eta.render('product', {
      ...this.views.locals(req),
      files: [],
      fileErrors: null,
      missing: {},
      notice: null,
      publishError: null,
      planCount: 0,
      reviewNote: null,
      ...data,
    });
    this.views.renderContent(req, res, product ? product.name : 'New product', body, status);
  }

  private async renderPlans(
    req: FastifyRequest,
    res: FastifyReply,
    storeId: number,
    pid: string,
    data: Record<string, unknown>,
    status = 200,
  ): Promise<void> {
    const [product, currency] = await Promise.all([
      this.products.get(storeId, productRef(pid)),
      this.products.currencyOf(storeId),
    ]);
    const plans = await this.plans.listOfProduct(storeId, product.id);
    const body = this.eta.render('plans', {
      ...this.views.locals(req),
      product: toProductDto(product, currency),
      plans,
      currency,
      form: { name: '', price: '', interval: 'month', interval_count: '1' },
      errors: {},
      notice: null,
      error: null,
      ...data,
    });
    this.views.renderContent(req, res, `Plans of ${product.name}`, body, status);
  }
}

function readForm(body: Form): Record<string, string> {
  return Object.fromEntries(FIELDS.map((field) => [field, formString(body?.[field])]));
}

/** The form as the API's body: empty optional fields absent (create) or `null` (update: clears them). */
function toInput(form: Record<string, string>, empty: null | undefined): Form {
  const input: Form = {
    name: form.name,
    type: form.type || undefined,
    price: formMoney(form.price, empty),
  };
  for (const field of ['description', 'image_url', 'sale_page_url', 'category', 'subcategory', 'contact_number'])
    input[field] = formOptional(form[field], empty);
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

function formOfProduct(product: ReturnType<typeof toProductDto>): Record<string, string> {
  return Object.fromEntries(
    FIELDS.map((field) => {
      const value = product[field];
      if (value === null || value === undefined) return [field, ''];
      // The price as the API's exact decimal text (two places), not a float's rounding.
      return [field, field === 'price' ? centsToDecimal(toCents(value as number)) : String(value)];
    }),
  );
}

/**
 * The Size column. The API's `size` is in MB with two decimals (OpenAPI: the product file), too
 * coarse for a small upload, so the row's byte count is used; a link is told by its kind, not by a
 * size of 0 (an upload under ~5 KB is 0.00 MB too).
 */
export function fileSizeLabel(file: Pick<ProductFile, 'kind' | 'sizeBytes'>): string {
  if (file.kind === 'link') return 'link';
  const bytes = file.sizeBytes;
  if (bytes >= BYTES_PER_MB) return `${megabytes(bytes).toFixed(2)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** A body the upload form could not take, beside its file field: the dashboard's error for a bad upload. */
function uploadErrors(failure: AppError): Errors {
  const fields = fieldErrorsOf(failure);
  if (fields) return fields;
  if (failure instanceof PayloadTooLargeError) return { file: ['The file is larger than the upload limit.'] };
  return { file: ['The upload did not arrive whole. Choose the file and upload it again.'] };
}

function noticeOf(query: Form): string | null {
  if (query.created) return 'Product created. Add its files, then publish it for review.';
  if (query.saved) return 'Changes saved.';
  if (query.uploaded) return 'File uploaded.';
  if (query.file_deleted) return 'File deleted.';
  if (query.published) return 'Submitted for review. You will get an email with the decision.';
  return null;
}

/** A product's id or `product_pid` from the address; anything that cannot be one is a 404. */
function productRef(value: string): string {
  if (!/^[\w-]{1,64}$/.test(value)) throw new NotFoundError();
  return value;
}
