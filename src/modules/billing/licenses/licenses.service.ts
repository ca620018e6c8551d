import { Injectable } from '@nestjs/common';
import { CatalogReads } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, UnprocessableError } from '../../../common/errors/app-error';
import { PageRequest } from '../../../common/pagination/pagination';
import { formatTimestamp } from '../../../common/time';
import { inTransaction } from '../../../database/transaction';
import { DeliveryKeys } from '../delivery/delivery-keys';
import { isRenewalOrder, type Order } from '../orders/order.entity';
import type { OrderBumpItem } from '../orders/order-bump-item.entity';
import { OrdersRepository } from '../orders/orders.repository';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { generateLicenseKey, licenseKeyHash, normalizeLicenseKey } from './license-key-format';
import type { LicenseInstance } from './license-instance.entity';
import { LicenseKey, LicenseStatus } from './license-key.entity';
import { LicensesRepository } from './licenses.repository';

/** A key as the order, the receipt, the portal, webhooks and the license API show it. */
export interface LicenseView {
  id: number;
  key: string;
  product_pid: string;
  status: LicenseStatus;
  activation_limit: number | null;
  activations: number;
  expires_at: string | null;
}

/** The seller's view: the key with its order and times (and, read alone, its instances). */
export interface SellerLicenseView extends LicenseView {
  order_id: number;
  created_at: string;
  updated_at: string;
  instances?: InstanceView[];
}

export interface InstanceView {
  id: number;
  name: string;
  created_at: string;
}

export type ValidationReason = null | 'disabled' | 'expired' | 'unknown_instance';

export const LICENSE_NOT_FOUND = 'License key not found.';

/**
 * License keys: issued on approval inside the order's transaction (so the
 * `order_approved` payload carries them), disabled by a refund, expired with their subscription and
 * moved on by each renewal; the public activate / validate / deactivate API and the seller's.
 */
@Injectable()
export class LicensesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly licenses: LicensesRepository,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly keys: DeliveryKeys,
  ) {}

  // ---- the order state machine's side (in the caller's transaction) ----

  /**
   * An order was approved: one key per license-enabled product of the order (bumps included); a
   * renewal order issues none but moves its subscription's keys to the new `end_date`.
   */
  async onApproved(manager: EntityManager, order: Order, bumpsOf: () => Promise<OrderBumpItem[]>): Promise<void> {
    const subscription =
      order.subscriptionId !== null ? await this.subscriptions.findById(order.subscriptionId, manager) : null;
    if (subscription && isRenewalOrder(order)) {
      await this.licenses.renew(manager, subscription.id, subscription.endDate);
      return;
    }
    const bumps = await bumpsOf();
    const products = await this.catalog.findProducts([order.productId, ...bumps.map((b) => b.productId)], manager);
    const licensed = [order.productId, ...bumps.map((b) => b.productId)]
      .map((id) => products.get(id))
      .filter((p) => p?.licenseKeysEnabled && p.storeId === order.storeId);
    await this.licenses.insertMissing(
      manager,
      licensed.map((product) => {
        const key = generateLicenseKey();
        return {
          storeId: order.storeId,
          orderId: order.id,
          productId: product!.id,
          productPid: product!.pid,
          subscriptionId: subscription?.id ?? null,
          keyHash: licenseKeyHash(key),
          keySealed: this.keys.encrypt(key),
          status: 'active' as const,
          activationLimit: product!.licenseActivationLimit,
          activations: 0,
          expiresAt: subscription?.endDate ?? null,
        };
      }),
    );
  }

  /** A refund disables the order's keys (and its subscription's, which the refund ends). */
  async onRefunded(manager: EntityManager, order: Order): Promise<void> {
    await this.licenses.setStatus(
      manager,
      order.subscriptionId !== null
        ? { orderId: order.id, subscriptionId: order.subscriptionId }
        : { orderId: order.id },
      ['active', 'expired'],
      'disabled',
    );
  }

  /**
   * The subscription ended at `at` (expired, cancelled when its period ran out, or cancelled at
   * once): its keys expire, and an `expires_at` still ahead becomes that moment.
   */
  async onSubscriptionEnded(manager: EntityManager, subscriptionId: number, at: Date): Promise<void> {
    await this.licenses.setStatus(manager, { subscriptionId }, ['active'], 'expired', at);
  }

  // ---- reads ----

  /** The keys an order delivered; a renewal order shows its subscription's. */
  async viewsOfOrder(order: Pick<Order, 'id' | 'subscriptionId'>, manager?: EntityManager): Promise<LicenseView[]> {
    let keys = await this.licenses.ofOrder(order.id, manager);
    if (!keys.length && order.subscriptionId !== null)
      keys = await this.licenses.ofSubscription(order.subscriptionId, manager);
    return keys.map((k) => this.view(k));
  }

  // ---- the seller's API ----

  async list(
    storeId: number,
    filters: { product?: string; order?: string; status?: LicenseStatus },
    page: PageRequest,
  ): Promise<[SellerLicenseView[], number]> {
    let order: { id: number; subscriptionId: number | null } | undefined;
    if (filters.order !== undefined) {
      const found = await this.orders.findOfStore(storeId, filters.order);
      if (!found) return [[], 0];
      // A renewal delivers no key of its own: it shows, and lists, its subscription's (as GET /v1/orders/{id}).
      order = { id: found.id, subscriptionId: found.subscriptionId };
    }
    const product = filters.product;
    const [rows, total] = await this.licenses.listOfStore(
      storeId,
      {
        productId: product !== undefined && /^\d{1,9}$/.test(product) ? Number(product) : undefined,
        productPid: product,
        order,
        status: filters.status,
      },
      page,
    );
    return [rows.map((k) => this.sellerView(k)), total];
  }

  async get(storeId: number, id: number): Promise<SellerLicenseView & { instances: InstanceView[] }> {
    const key = await this.licenses.findOfStore(storeId, id);
    if (!key) throw new NotFoundError();
    const instances = await this.licenses.instancesOf(key.id);
    return { ...this.sellerView(key), instances: instances.map(instanceView) };
  }

  /** `disable` / `enable` by the seller; an expired key stays expired (its subscription ended): 422. */
  setEnabled(
    storeId: number,
    id: number,
    enabled: boolean,
  ): Promise<SellerLicenseView & { instances: InstanceView[] }> {
    return inTransaction(this.dataSource, async (manager) => {
      const key = await this.licenses.findOfStore(storeId, id, manager);
      if (!key) throw new NotFoundError();
      // Neither answer may claim a change that did not happen: expired is its subscription's to undo.
      if (key.status === 'expired')
        throw new UnprocessableError(`An expired license key cannot be ${enabled ? 'enabled' : 'disabled'}.`);
      key.status = enabled ? 'active' : 'disabled';
      const saved = await this.licenses.save(manager, key);
      const instances = await this.licenses.instancesOf(key.id, manager);
      return { ...this.sellerView(saved), instances: instances.map(instanceView) };
    });
  }

  // ---- the public API: the key is the credential ----

  /** One more instance, unless the key is full: the key's row is locked, so of two racing for the last slot one wins. */
  activate(input: string, name: string): Promise<{ license: LicenseView; instance: { id: number; name: string } }> {
    return inTransaction(this.dataSource, async (manager) => {
      const key = await this.lockKey(manager, input);
      const reason = this.invalidity(key);
      if (reason === 'disabled') throw new UnprocessableError('License key is disabled.');
      if (reason === 'expired') throw new UnprocessableError('License key has expired.');
      if (key.activationLimit !== null && key.activations >= key.activationLimit)
        throw new UnprocessableError('Activation limit reached.');
      const instance = await this.licenses.addInstance(manager, key.id, name);
      key.activations += 1;
      const saved = await this.licenses.save(manager, key);
      return { license: this.view(saved), instance: { id: instance.id, name: instance.name } };
    });
  }

  async validate(
    input: string,
    instanceId: number | undefined,
  ): Promise<{ valid: boolean; reason: ValidationReason; license: LicenseView }> {
    const key = await this.findKey(input);
    let reason: ValidationReason = this.invalidity(key);
    if (!reason && instanceId !== undefined) {
      const instances = await this.licenses.instancesOf(key.id);
      if (!instances.some((i) => i.id === instanceId)) reason = 'unknown_instance';
    }
    return { valid: reason === null, reason, license: this.view(key) };
  }

  deactivate(input: string, instanceId: number): Promise<{ license: LicenseView }> {
    return inTransaction(this.dataSource, async (manager) => {
      const key = await this.lockKey(manager, input);
      const instance = await this.licenses.findInstance(manager, key.id, instanceId);
      if (!instance) throw new NotFoundError();
      await this.licenses.removeInstance(manager, instance);
      key.activations = Math.max(0, key.activations - 1);
      return { license: this.view(await this.licenses.save(manager, key)) };
    });
  }

  private async findKey(input: string): Promise<LicenseKey> {
    const normalized = normalizeLicenseKey(input);
    const key = normalized ? await this.licenses.findByHash(licenseKeyHash(normalized)) : null;
    if (!key) throw new NotFoundError(LICENSE_NOT_FOUND);
    return key;
  }

  private async lockKey(manager: EntityManager, input: string): Promise<LicenseKey> {
    const normalized = normalizeLicenseKey(input);
    const key = normalized ? await this.licenses.lockByHash(manager, licenseKeyHash(normalized)) : null;
    if (!key) throw new NotFoundError(LICENSE_NOT_FOUND);
    return key;
  }

  /** Why the key does not work now, if it does not. */
  private invalidity(key: LicenseKey): 'disabled' | 'expired' | null {
    if (key.status === 'disabled') return 'disabled';
    if (key.status === 'expired') return 'expired';
    return null;
  }

  view(
    key: Pick<
      LicenseKey,
      'id' | 'keySealed' | 'productPid' | 'status' | 'activationLimit' | 'activations' | 'expiresAt'
    >,
  ): LicenseView {
    return {
      id: key.id,
      key: this.keys.decrypt(key.keySealed),
      product_pid: key.productPid,
      status: key.status,
      activation_limit: key.activationLimit,
      activations: key.activations,
      expires_at: formatTimestamp(key.expiresAt),
    };
  }

  private sellerView(key: LicenseKey): SellerLicenseView {
    return {
      ...this.view(key),
      order_id: key.orderId,
      created_at: formatTimestamp(key.createdAt),
      updated_at: formatTimestamp(key.updatedAt),
    };
  }
}

function instanceView(instance: LicenseInstance): InstanceView {
  return { id: instance.id, name: instance.name, created_at: formatTimestamp(instance.createdAt) };
}
