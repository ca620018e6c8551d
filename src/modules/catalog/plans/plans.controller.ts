import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConflict, ApiNotFound, ApiValidationFailed } from '../../../common/http/api-docs';
import { PaginationQueryDto, pageRequest, paginated } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { ApiCatalogId } from '../catalog-api.decorators';
import {
  CreatePlanDto,
  PlanCreatedResponseDto,
  PlanDeletedResponseDto,
  PlanListResponseDto,
  PlanResponseDto,
  PlanUpdatedResponseDto,
  SubscriberListResponseDto,
  UpdatePlanDto,
} from './dto/plan.dto';
import { toPlanDto, toSubscriberDto } from './plan.mapper';
import { PlansService, PlanView } from './plans.service';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { PLAN_HAS_SALES } from '../deletion-events';
import { ResourceFirst } from '../../../common/http/resource-first';

const planDto = (view: PlanView) => toPlanDto(view.plan, view.productPid, view.currency);

@ApiTags('Plans')
@Controller('v1')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  /** `POST /v1/plan` is the contract's name; `/v1/plans` matches the other routes. */
  @Post(['plans', 'plan'])
  @Idempotent()
  @RequireScopes('plans.write')
  @ApiOperation({
    summary: 'Create a plan of a recurring product (also `POST /v1/plan`)',
    description:
      'A product that is not `recurring` is 422 `Plans can only be created for recurring products.`, also when ' +
      'it is changed to `one_time` while the plan is being created (of the two, exactly one succeeds); a product ' +
      'deleted meanwhile is 404 `Product not found.`',
  })
  @ApiCreatedResponse({ type: PlanCreatedResponseDto })
  @ApiNotFound(undefined, 'Product not found.')
  @ApiValidationFailed()
  async create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePlanDto): Promise<PlanCreatedResponseDto> {
    const view = await this.plans.create(principal.storeId, dto);
    return { status: 'success', message: 'Plan created successfully.', plan: planDto(view) };
  }

  @Get('plans')
  @RequireScopes('plans.read')
  @ApiOperation({ summary: "List the store's plans, newest first" })
  @ApiOkResponse({ type: PlanListResponseDto })
  @ApiValidationFailed()
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PaginationQueryDto,
  ): Promise<PlanListResponseDto> {
    const page = pageRequest(query);
    const { views, total } = await this.plans.list(principal.storeId, page);
    return paginated('plans', views.map(planDto), total, page);
  }

  @Get('plans/:id')
  @RequireScopes('plans.read')
  @ApiOperation({ summary: 'Get a plan by `plan_id` or `id`' })
  @ApiCatalogId('plan')
  @ApiOkResponse({ type: PlanResponseDto })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<PlanResponseDto> {
    return { status: 'success', plan: planDto(await this.plans.get(principal.storeId, id)) };
  }

  @Patch('plans/:id')
  @ResourceFirst(PlansService, (plans, storeId, ref) => plans.findForStore(storeId, ref))
  @RequireScopes('plans.write')
  @ApiOperation({ summary: 'Update a plan (name, price, interval, interval_count)' })
  @ApiCatalogId('plan')
  @ApiOkResponse({ type: PlanUpdatedResponseDto })
  @ApiValidationFailed()
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() dto: UpdatePlanDto,
  ): Promise<PlanUpdatedResponseDto> {
    const view = await this.plans.update(principal.storeId, id, dto);
    return { status: 'success', message: 'Plan updated successfully.', plan: planDto(view) };
  }

  @Delete('plans/:id')
  @RequireScopes('plans.write')
  @ApiOperation({ summary: 'Delete a plan (not when it has approved or refunded sales)' })
  @ApiCatalogId('plan')
  @ApiOkResponse({ type: PlanDeletedResponseDto })
  @ApiConflict(
    PLAN_HAS_SALES,
    '`This plan has one or more sales and cannot be deleted.`, or `A payment is already in progress.` while one of its ' +
      'open checkouts is being paid. Its pending orders stay pending; their checkout links answer 404.',
  )
  async delete(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<PlanDeletedResponseDto> {
    await this.plans.delete(principal.storeId, id);
    return { status: 'success', message: 'Plan deleted successfully.' };
  }

  @Get('plans/:id/subscribers')
  @RequireScopes('plans.read')
  @ApiOperation({ summary: "The plan's subscribers: its approved or refunded orders, newest first" })
  @ApiCatalogId('plan')
  @ApiOkResponse({ type: SubscriberListResponseDto })
  @ApiValidationFailed()
  async subscribers(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: PaginationQueryDto,
  ): Promise<SubscriberListResponseDto> {
    const page = pageRequest(query);
    const { view, rows, total } = await this.plans.subscribers(principal.storeId, id, page);
    const plan = { plan_id: view.plan.planId, name: view.plan.name, product_pid: view.productPid };
    return paginated('subscribers', rows.map(toSubscriberDto), total, page, { plan });
  }
}
