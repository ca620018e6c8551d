import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LicensesService } from '../billing';
import { DEMO, DemoIds } from './demo-identifiers';

type Row = Record<string, unknown>;

/** Reads (and the few fixed-identifier writes) of the demo store: one store, found by its seller. */
@Injectable()
export class DemoRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly licenses: LicensesService,
  ) {}

  async storeId(): Promise<number | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT st.id FROM stores st JOIN sellers s ON s.id = st.seller_id WHERE s.email = $1 AND st.live_store_id IS NULL ORDER BY st.id LIMIT 1`,
      [DEMO.sellerEmail],
    );
    return rows.length ? Number(rows[0].id) : null;
  }

  /** Gives a product or plan the demo's fixed identifier (the services give new ones random ones). */
  async renameProduct(id: number, pid: string): Promise<void> {
    await this.dataSource.query(`UPDATE products SET pid = $2 WHERE id = $1`, [id, pid]);
  }

  async renamePlan(id: number, planId: string): Promise<void> {
    await this.dataSource.query(`UPDATE plans SET plan_id = $2 WHERE id = $1`, [id, planId]);
  }

  /** Takes the product of the publish example out of review again, so that the example runs again. */
  async backToDraft(storeId: number, pid: string): Promise<void> {
    await this.dataSource.query(`UPDATE products SET status_2 = 'draft' WHERE store_id = $1 AND pid = $2`, [
      storeId,
      pid,
    ]);
  }

  /** Removes what the create examples made that would refuse a second run (a duplicate bump, affiliate). */
  async removeExampleLeftovers(storeId: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM order_bumps b USING products p, products o
       WHERE b.store_id = $1 AND p.id = b.product_id AND o.id = b.bump_product_id AND p.pid = $2 AND o.pid = $3`,
      [storeId, DEMO.guidePid, DEMO.checklistPid],
    );
    await this.dataSource.query(
      `DELETE FROM affiliates a WHERE a.store_id = $1 AND a.email = $2
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.affiliate_id = a.id)`,
      [storeId, DEMO.exampleAffiliateEmail],
    );
  }

  /** The ids the examples name, each null when the demo store does not have it (yet, or any more). */
  async ids(): Promise<DemoIds | null> {
    const storeId = await this.storeId();
    if (storeId === null) return null;
    const one = async (sql: string, params: unknown[] = []): Promise<unknown> => {
      const rows: Row[] = await this.dataSource.query(sql, [storeId, ...params]);
      return rows.length ? Object.values(rows[0])[0] : null;
    };
    const num = (value: unknown) => (value === null ? null : Number(value));
    const str = (value: unknown) => (value === null ? null : String(value));
    const customerId = num(
      await one(`SELECT id FROM customers WHERE store_id = $1 AND email = $2`, [DEMO.customer.email]),
    );
    const webhookId = num(
      await one(`SELECT id FROM webhooks WHERE store_id = $1 AND name = $2 ORDER BY id LIMIT 1`, [DEMO.webhookName]),
    );
    const campaign = (name: string, status: string) =>
      one(
        `SELECT order_number FROM orders WHERE store_id = $1 AND tracking->>'utm_campaign' = $2 AND status = $3
         ORDER BY id DESC LIMIT 1`,
        [name, status],
      );
    return {
      ...(await this.license(storeId, str(await campaign(DEMO.licenseCampaign, 'approved')))),
      storeId,
      customerId,
      subscriptionId: num(
        await one(
          `SELECT su.id FROM subscriptions su JOIN plans p ON p.id = su.plan_id
           WHERE su.store_id = $1 AND p.plan_id = $2 AND su.status = 'active' AND su.cancelled_at IS NULL
           ORDER BY su.id DESC LIMIT 1`,
          [DEMO.planId],
        ),
      ),
      orderNumber: str(await campaign(DEMO.shownCampaign, 'approved')),
      refundOrderNumber: str(await campaign(DEMO.refundCampaign, 'approved')),
      webhookId,
      oldWebhookId: num(
        await one(`SELECT id FROM webhooks WHERE store_id = $1 AND name = $2 ORDER BY id LIMIT 1`, [
          DEMO.oldWebhookName,
        ]),
      ),
      deliveryId:
        webhookId === null
          ? null
          : num(
              await one(
                `SELECT d.id FROM webhook_deliveries d JOIN webhook_delivery_targets t ON t.delivery_id = d.id
                 WHERE d.store_id = $1 AND t.webhook_id = $2 ORDER BY d.id DESC LIMIT 1`,
                [webhookId],
              ),
            ),
      affiliateId: num(
        await one(`SELECT id FROM affiliates WHERE store_id = $1 AND email = $2 ORDER BY id LIMIT 1`, [
          DEMO.affiliateEmail,
        ]),
      ),
      oldAffiliateId: num(
        await one(`SELECT id FROM affiliates WHERE store_id = $1 AND email = $2 ORDER BY id LIMIT 1`, [
          DEMO.oldAffiliateEmail,
        ]),
      ),
      oldFileId: num(
        await one(
          `SELECT f.id FROM product_files f JOIN products p ON p.id = f.product_id
           WHERE f.store_id = $1 AND p.pid = $2 AND f.name = $3 ORDER BY f.id LIMIT 1`,
          [DEMO.clubPid, DEMO.oldFileName],
        ),
      ),
      bumpId: num(
        await one(
          `SELECT b.id FROM order_bumps b JOIN products p ON p.id = b.product_id JOIN products o ON o.id = b.bump_product_id
           WHERE b.store_id = $1 AND p.pid = $2 AND o.pid = $3 ORDER BY b.id LIMIT 1`,
          [DEMO.clubPid, DEMO.checklistPid],
        ),
      ),
    };
  }

  /** The key of the demo's licensed order and the instance seed:demo keeps on it, read through billing. */
  private async license(
    storeId: number,
    orderNumber: string | null,
  ): Promise<Pick<DemoIds, 'licenseId' | 'licenseKey' | 'instanceId'>> {
    const none = { licenseId: null, licenseKey: null, instanceId: null };
    if (orderNumber === null) return none;
    const [[key]] = await this.licenses.list(storeId, { order: orderNumber }, { page: 1, perPage: 1, offset: 0 });
    if (!key) return none;
    const { instances } = await this.licenses.get(storeId, key.id);
    const instance = instances.find((i) => i.name === DEMO.instanceName);
    return { licenseId: key.id, licenseKey: key.key, instanceId: instance?.id ?? null };
  }
}
