import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConflict, ApiIdParam, ApiNotFound, ApiValidationFailed } from '../../../common/http/api-docs';
import { IntIdPipe, requireIntId } from '../../../common/http/path-id';
import { paginated, pageRequest } from '../../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import {
  CancelSubscriptionDto,
  ListSubscriptionsQueryDto,
  SubscriptionCancelledDto,
  SubscriptionEnvelopeDto,
  SubscriptionListDto,
} from './dto/subscription.dto';
import { SubscriptionLifecycle } from './subscription-lifecycle.service';
import { toSubscriptionDto } from './subscription.mapper';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';
import { ResourceFirst } from '../../../common/http/resource-first';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'A new one for each new request (for example a UUID); repeated with the same body it replays the first response for 24 h.',
};

/** Subscriptions and their periods' orders; cancel now or at period end. */
@ApiTags('Subscriptions')
@Controller('v1/subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly lifecycle: SubscriptionLifecycle,
  ) {}

  @Get()
  @RequireScopes('subscriptions.read')
  @ApiOperation({ summary: "List the store's subscriptions, newest first (filters status, plan, customer)" })
  @ApiOkResponse({ type: SubscriptionListDto })
  @ApiValidationFailed({ status: ['status must be one of: active, past_due, cancelled, expired.'] })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListSubscriptionsQueryDto,
  ): Promise<SubscriptionListDto> {
    const page = pageRequest(query);
    const [views, total] = await this.subscriptions.list(
      principal.storeId,
      { status: query.status, plan: query.plan, customerId: query.customer },
      page,
    );
    return paginated('subscriptions', views.map(toSubscriptionDto), total, page);
  }

  @Get(':id')
  @RequireScopes('subscriptions.read')
  @ApiOperation({ summary: 'Get a subscription with the order numbers of its periods' })
  @ApiIdParam('id', 'Subscription id.', 12)
  @ApiOkResponse({ type: SubscriptionEnvelopeDto })
  @ApiNotFound('`Resource not found.`')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
  ): Promise<SubscriptionEnvelopeDto> {
    return { status: 'success', subscription: toSubscriptionDto(await this.subscriptions.get(principal.storeId, id)) };
  }

  @Post(':id/cancel')
  @ResourceFirst(SubscriptionsRepository, (subscriptions, storeId, ref) =>
    subscriptions.findOfStore(storeId, requireIntId(ref)),
  )
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('subscriptions.write')
  @ApiOperation({
    summary: 'Cancel a subscription at the end of its paid period (default) or at once',
    description:
      '`at_period_end: true` sets `cancelled_at` now and `cancel_at_period_end`; the status stays `active` until `end_date`, ' +
      'when it becomes `cancelled` (`subscription_cancelled`). An open renewal order is cancelled now. `at_period_end: false`, ' +
      'or a `past_due` subscription, is cancelled at once. A subscription already cancelled or expired is 409.',
  })
  @ApiIdParam('id', 'Subscription id.', 12)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiOkResponse({ type: SubscriptionCancelledDto })
  @ApiNotFound('`Resource not found.`')
  @ApiConflict('Subscription has already ended.', '`Subscription has already ended.` — it is cancelled or expired.')
  @ApiValidationFailed({ at_period_end: ['at_period_end must be a boolean.'] })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
    @Body() body: CancelSubscriptionDto,
  ): Promise<SubscriptionCancelledDto> {
    await this.lifecycle.cancel(principal.storeId, id, body.at_period_end ?? true);
    return {
      status: 'success',
      message: 'Subscription cancelled.',
      subscription: toSubscriptionDto(await this.subscriptions.get(principal.storeId, id)),
    };
  }
}
