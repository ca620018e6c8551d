import { forwardRef, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConflictError, NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { DomainEvents } from '../../../common/events/domain-events';
import { toCents } from '../../../common/money';
import { PageRequest } from '../../../common/pagination/pagination';
import { Clock, CLOCK } from '../../../common/time';
import { inTransaction } from '../../../database/transaction';
import { CatalogRef, newPlanId, parseRef } from '../catalog-refs';
import { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { SalesRepository, SubscribedPlan, SubscriberRow } from '../../billing';
import { CreatePlanDto, UpdatePlanDto } from './dto/plan.dto';
import { PLAN_HAS_SALES, planDeletedEvent } from '../deletion-events';
import { Plan } from './plan.entity';
import { PlansRepository } from './plans.repository';

/** A plan with what its output needs from elsewhere (spec: `product_pid`, the store's `currency`). */
export interface PlanView {
  plan: Plan;
  productPid: string;
  currency: string;
}

@Injectable()
export class PlansService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly plans: PlansRepository,
    private readonly products: ProductsService,
    @Inject(forwardRef(() => SalesRepository)) private readonly sales: SalesRepository,
    private readonly events: DomainEvents,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A plan of the store by `plan_id` (or numeric id), or null. For order creation. */
  findForStore(storeId: number, planIdOrId: string | number): Promise<Plan | null> {
    return this.plans.findByRef(storeId, typeof planIdOrId === 'number' ? { id: planIdOrId } : parseRef(planIdOrId));
  }

  /**
   * `planId`: a new random one; the demo seed gives its plans fixed ones (README, Quick start).
   * The plan is inserted while its product is held `FOR SHARE`, and the product's type is read under
   * that hold: a concurrent change to `one_time` or deletion of the product either waits for the
   * plan (and finds it) or has committed before (422, or 404 `Product not found.`); catalog README, *Plans*.
   */
  async create(storeId: number, dto: CreatePlanDto, planId: string = newPlanId()): Promise<PlanView> {
    const found = await this.productOf(storeId, dto);
    const { product, plan } = await inTransaction(this.dataSource, async (manager) => {
      const product = await this.products.shareForPlan(storeId, found.id, manager);
      if (!product) throw new NotFoundError('Product not found.');
      if (product.type !== 'recurring') {
        throw ValidationError.field(
          dto.product_pid !== undefined ? 'product_pid' : 'product_id',
          'Plans can only be created for recurring products.',
        );
      }
      const plan = await this.plans.create(
        {
          storeId,
          productId: product.id,
          planId,
          name: dto.name,
          price: toCents(dto.price),
          interval: dto.interval,
          intervalCount: dto.interval_count ?? 1,
        },
        manager,
      );
      return { product, plan };
    });
    return this.view(storeId, plan, product.pid);
  }

  async get(storeId: number, ref: string): Promise<PlanView> {
    return this.view(storeId, await this.require(storeId, parseRef(ref)));
  }

  /** The plans of one product of the store, oldest first (the dashboard's product pages). */
  listOfProduct(storeId: number, productId: number): Promise<Plan[]> {
    return this.plans.listForProduct(storeId, productId);
  }

  async list(storeId: number, page: PageRequest): Promise<{ views: PlanView[]; total: number }> {
    const [plans, total] = await this.plans.listPage(storeId, page);
    const [pids, currency] = await Promise.all([
      this.products.pidsByProductId(
        storeId,
        plans.map((plan) => plan.productId),
      ),
      this.products.currencyOf(storeId),
    ]);
    return { total, views: plans.map((plan) => ({ plan, productPid: pids.get(plan.productId) ?? '', currency })) };
  }

  async update(storeId: number, ref: string, dto: UpdatePlanDto): Promise<PlanView> {
    const plan = await this.require(storeId, parseRef(ref));
    if (dto.name !== undefined) plan.name = dto.name;
    if (dto.price !== undefined) plan.price = toCents(dto.price);
    if (dto.interval !== undefined) plan.interval = dto.interval;
    if (dto.interval_count !== undefined) plan.intervalCount = dto.interval_count;
    return this.view(storeId, await this.plans.save(plan));
  }

  /**
   * A plan that was ever sold (approved or refunded) stays. Its deletion publishes `plan.deleted` in
   * its transaction: billing cancels the plan's open checkouts, or refuses while one is being paid.
   */
  async delete(storeId: number, ref: string): Promise<Plan> {
    return inTransaction(this.dataSource, async (manager) => {
      const plan = await this.plans.lockByRef(storeId, parseRef(ref), manager);
      if (!plan) throw new NotFoundError();
      if (await this.sales.planHasSales(storeId, plan.id, manager)) {
        throw new ConflictError(PLAN_HAS_SALES);
      }
      await this.events.publish(planDeletedEvent(storeId, plan.id, this.clock.now()), manager);
      await this.plans.delete(plan, manager);
      return plan;
    });
  }

  /** The plan's sales, newest first, one page at a time. */
  async subscribers(
    storeId: number,
    ref: string,
    page: PageRequest,
  ): Promise<{ view: SubscribedPlan; rows: SubscriberRow[]; total: number }> {
    const found = await this.plans.findWithProductPid(storeId, parseRef(ref));
    if (!found) throw new NotFoundError();
    const { rows, total } = await this.sales.subscribersOfPlan(storeId, found.plan.id, page);
    return { view: { plan: found.plan, productPid: found.productPid }, rows, total };
  }

  private async require(storeId: number, ref: CatalogRef): Promise<Plan> {
    const plan = await this.plans.findByRef(storeId, ref);
    if (!plan) throw new NotFoundError();
    return plan;
  }

  private async productOf(storeId: number, dto: CreatePlanDto): Promise<Product> {
    if (dto.product_id === undefined && dto.product_pid === undefined) {
      throw new ValidationError({ product_id: ['product_id or product_pid is required.'] });
    }
    const byId = dto.product_id !== undefined ? await this.products.findForStore(storeId, dto.product_id) : null;
    const byPid = dto.product_pid !== undefined ? await this.products.findForStore(storeId, dto.product_pid) : null;
    if (dto.product_id !== undefined && dto.product_pid !== undefined && byId?.id !== byPid?.id) {
      throw ValidationError.field('product_pid', 'product_id and product_pid name different products.');
    }
    const product = byId ?? byPid;
    if (!product) throw new NotFoundError('Product not found.');
    return product;
  }

  private async view(storeId: number, plan: Plan, productPid?: string): Promise<PlanView> {
    const [pids, currency] = await Promise.all([
      productPid
        ? Promise.resolve(new Map([[plan.productId, productPid]]))
        : this.products.pidsByProductId(storeId, [plan.productId]),
      this.products.currencyOf(storeId),
    ]);
    return { plan, productPid: pids.get(plan.productId) ?? '', currency };
  }
}
