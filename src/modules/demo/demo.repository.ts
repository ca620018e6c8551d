import type { Type } from '@nestjs/common';
import { AffiliatesService } from '../affiliates';
import { LicensesService, OrdersService } from '../billing';
import { OrderBumpsService, PlansService, ProductFilesService } from '../catalog';
import { SellersService } from '../identity';
import { WebhooksService } from '../webhooks';
import { DEMO, DemoIds } from './demo-identifiers';

/** Everything in one page: the demo store holds a handful of each. */
const ALL = { page: 1, perPage: 1000, offset: 0 };
const FIRST = { page: 1, perPage: 1, offset: 0 };

/** The lowest id among rows that match, as `ORDER BY id LIMIT 1` would pick. */
function lowest<T extends { id: number }>(rows: T[], match: (row: T) => boolean): number | null {
  const ids = rows.filter(match).map((row) => row.id);
  return ids.length ? Math.min(...ids) : null;
}

/** What the demo needs from an application context: the owning modules' exported services. */
type Lookup = { get<T>(type: Type<T>, options: { strict: false }): T };

/**
 * The demo store's lookups, and the few changes seed:demo makes besides creating (README, Quick
 * start): all through the services the owning modules export, as the API does it, so the demo
 * names no module's table. One store, found by its seller.
 */
export class DemoRepository {
  constructor(
    private readonly sellers: SellersService,
    private readonly plans: PlansService,
    private readonly files: ProductFilesService,
    private readonly bumps: OrderBumpsService,
    private readonly affiliates: AffiliatesService,
    private readonly webhooks: WebhooksService,
    private readonly orders: OrdersService,
    private readonly licenses: LicensesService,
  ) {}

  /** From an application context (the CLI's, the API's for the request examples). */
  static of(app: Lookup): DemoRepository {
    const get = <T>(type: Type<T>): T => app.get(type, { strict: false });
    return new DemoRepository(
      get(SellersService),
      get(PlansService),
      get(ProductFilesService),
      get(OrderBumpsService),
      get(AffiliatesService),
      get(WebhooksService),
      get(OrdersService),
      get(LicensesService),
    );
  }

  async storeId(): Promise<number | null> {
    const seller = await this.sellers.findByEmail(DEMO.sellerEmail);
    const store = seller && (await this.sellers.findStoreOfSeller(seller.id));
    return store ? store.id : null;
  }

  /** Removes what the create examples made that would refuse a second run (a duplicate bump, affiliate). */
  async removeExampleLeftovers(storeId: number): Promise<void> {
    const { bumps } = await this.bumps.listForProductRef(storeId, DEMO.guidePid).catch(() => ({ bumps: [] }));
    for (const bump of bumps.filter((b) => b.bumpProduct.pid === DEMO.checklistPid))
      await this.bumps.remove(storeId, DEMO.guidePid, String(bump.id));
    // Orders keep the affiliate's id and commission after it is deleted (as the API's delete).
    const [affiliates] = await this.affiliates.list(storeId, ALL);
    for (const affiliate of affiliates.filter((a) => a.email === DEMO.exampleAffiliateEmail))
      await this.affiliates.remove(storeId, String(affiliate.id));
  }

  /** The ids the examples name, each null when the demo store does not have it (yet, or any more). */
  async ids(): Promise<DemoIds | null> {
    const storeId = await this.storeId();
    if (storeId === null) return null;
    const [webhooks, [affiliates], clubFiles, clubBumps, [approved]] = await Promise.all([
      this.webhooks.list(storeId, ALL).then((list) => list.items.map((view) => view.webhook)),
      this.affiliates.list(storeId, ALL),
      this.files.list(storeId, DEMO.clubPid).catch(() => []),
      this.bumps.listForProductRef(storeId, DEMO.clubPid).then(
        (offer) => offer.bumps,
        () => [],
      ),
      this.orders.list(storeId, { email: DEMO.customer.email, status: 'approved' }, ALL),
    ]);
    const webhookId = lowest(webhooks, (w) => w.name === DEMO.webhookName);
    const deliveryId =
      webhookId === null
        ? null
        : ((await this.webhooks.listDeliveries(storeId, webhookId, FIRST)).items[0]?.delivery.id ?? null);
    // The demo customer's approved orders, newest first: the examples' orders and subscription.
    const newest = [...approved].sort((a, b) => b.order.id - a.order.id);
    const campaign = (name: string) =>
      newest.find((view) => view.order.tracking?.utm_campaign === name)?.order.orderNumber ?? null;
    const subscribed = newest.find(
      (view) =>
        view.plan?.planId === DEMO.planId &&
        view.subscription?.status === 'active' &&
        view.subscription.cancelledAt === null,
    );
    const customerId =
      newest[0]?.customer.id ??
      (await this.orders.list(storeId, { email: DEMO.customer.email }, FIRST))[0][0]?.customer.id ??
      null;
    return {
      ...(await this.license(storeId, campaign(DEMO.licenseCampaign))),
      storeId,
      customerId,
      subscriptionId: subscribed?.subscription?.id ?? null,
      orderNumber: campaign(DEMO.shownCampaign),
      refundOrderNumber: campaign(DEMO.refundCampaign),
      webhookId,
      oldWebhookId: lowest(webhooks, (w) => w.name === DEMO.oldWebhookName),
      deliveryId,
      affiliateId: lowest(affiliates, (a) => a.email === DEMO.affiliateEmail),
      oldAffiliateId: lowest(affiliates, (a) => a.email === DEMO.oldAffiliateEmail),
      oldFileId: lowest(clubFiles, (f) => f.name === DEMO.oldFileName),
      bumpId: lowest(clubBumps, (b) => b.bumpProduct.pid === DEMO.checklistPid),
    };
  }

  /** The key of the demo's licensed order and the instance seed:demo keeps on it, read through billing. */
  private async license(
    storeId: number,
    orderNumber: string | null,
  ): Promise<Pick<DemoIds, 'licenseId' | 'licenseKey' | 'instanceId' | 'licenseOrderNumber'>> {
    const none = { licenseId: null, licenseKey: null, instanceId: null, licenseOrderNumber: null };
    if (orderNumber === null) return none;
    const [[key]] = await this.licenses.list(storeId, { order: orderNumber }, FIRST);
    if (!key) return none;
    const { instances } = await this.licenses.get(storeId, key.id);
    const instance = instances.find((i) => i.name === DEMO.instanceName);
    return {
      licenseId: key.id,
      licenseKey: key.key,
      instanceId: instance?.id ?? null,
      licenseOrderNumber: orderNumber,
    };
  }
}
