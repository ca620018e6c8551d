import { Body, forwardRef, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../common/errors/app-error';
import { SalesRepository } from '../../billing';
import { SellersService } from '../sellers/sellers.service';
import { StoreModes } from '../sellers/store-modes.service';
import type { Store } from '../sellers/store.entity';
import { CurrentSeller, DashboardPages } from './dashboard-pages';
import { validateForm } from './form-validation';
import { StoreSettingsForm } from './store-settings.form';
import { ViewsService } from './views.service';
import { formString, type SellerSession } from './web-auth';

type Form = Record<'name' | 'brand' | 'contact_number' | 'logo_url' | 'currency', string>;

/** Why the currency cannot change any more, or null while it can. */
type CurrencyLock = string | null;

/**
 * Settings → Store (README, *Operating it*): the store's name, brand, contact number and logo URL,
 * and its currency while the store has no order. The settings are the live store's and its test
 * store takes the same values (README, *Test mode*: buyers of either mode see the same store), so
 * the page edits the live store whatever the Test mode switch says. Whether the store has an order
 * is billing's to answer (`SalesRepository`).
 */
@DashboardPages('settings/store')
export class StoreSettingsPagesController {
  constructor(
    private readonly sellers: SellersService,
    private readonly modes: StoreModes,
    // Billing's barrel loads identity's: the port is looked up once both have loaded.
    @Inject(forwardRef(() => SalesRepository)) private readonly sales: SalesRepository,
    private readonly views: ViewsService,
  ) {}

  @Get()
  async show(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @CurrentSeller() seller: SellerSession,
  ): Promise<void> {
    const store = await this.liveStore(seller);
    const saved = (req.query as Record<string, unknown>).saved === '1';
    this.render(req, res, seller, store, formOf(store), {}, await this.currencyLock(store), saved);
  }

  @Post()
  async save(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Body() body: Record<string, unknown>,
    @CurrentSeller() seller: SellerSession,
  ): Promise<void> {
    const store = await this.liveStore(seller);
    const form: Form = {
      name: formString(body?.name),
      brand: formString(body?.brand),
      contact_number: formString(body?.contact_number),
      logo_url: formString(body?.logo_url),
      currency: formString(body?.currency).toUpperCase(),
    };
    const checked = await validateForm(StoreSettingsForm, form);
    const errors = checked.errors ?? {};
    // A store made before currencies had to be ISO 4217 codes keeps its own while it is not changed.
    if (form.currency === store.currency) delete errors.currency;
    const lock = await this.currencyLock(store);
    if (lock && !errors.currency && form.currency !== store.currency)
      errors.currency = ['currency cannot change once the store has an order.'];
    if (Object.keys(errors).length) return this.render(req, res, seller, store, form, errors, lock, false, 422);
    await this.sellers.updateStoreSettings(store.id, {
      name: form.name,
      brand: form.brand,
      contactNumber: form.contact_number || null,
      logoUrl: form.logo_url || null,
      currency: form.currency,
    });
    res.redirect(this.views.url('/settings/store?saved=1'), 303);
  }

  private async liveStore(seller: SellerSession): Promise<Store> {
    const store = await this.sellers.findStore(seller.liveStoreId);
    if (!store) throw new NotFoundError();
    return store;
  }

  /** The currency is fixed by the first order of either mode: orders keep the currency they were made in. */
  private async currencyLock(live: Store): Promise<CurrencyLock> {
    const test = await this.modes.findTestStoreOf(live.id);
    const withOrders = await this.sales.storesWithOrders(test ? [live.id, test.id] : [live.id]);
    if (withOrders.has(live.id)) return 'Your store has orders, and each order keeps the currency it was made in.';
    if (test && withOrders.has(test.id))
      return 'Your store has test orders. Delete the test data (DELETE /v1/test-data with a test key) to change it.';
    return null;
  }

  private render(
    req: FastifyRequest,
    res: FastifyReply,
    seller: SellerSession,
    store: Store,
    form: Form,
    errors: Record<string, string[]>,
    lock: CurrencyLock,
    saved: boolean,
    status = 200,
  ): void {
    // A locked currency shows the store's, whatever the refused form said.
    const shown = lock ? { ...form, currency: store.currency } : form;
    this.views.render(
      req,
      res,
      'store-settings',
      { title: 'Store', form: shown, errors, lock, saved, test: seller.test, logoUrl: store.logoUrl },
      status,
    );
  }
}

function formOf(store: Store): Form {
  return {
    name: store.name,
    brand: store.brand,
    contact_number: store.contactNumber ?? '',
    logo_url: store.logoUrl ?? '',
    currency: store.currency,
  };
}
