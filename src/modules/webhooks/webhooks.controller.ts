import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiIdParam, ApiNotFound, ApiValidationFailed } from '../../common/http/api-docs';
import { IntIdPipe, requireIntId } from '../../common/http/path-id';
import {
  ActiveStatusPageQueryDto,
  pageRequest,
  paginated,
  PaginationQueryDto,
} from '../../common/pagination/pagination';
import { CurrentPrincipal, type Principal, RequireScopes } from '../identity';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook-input.dto';
import {
  WebhookDeletedResponseDto,
  WebhookDeliveryListResponseDto,
  WebhookListResponseDto,
  WebhookMessageResponseDto,
  WebhookRedeliveryResponseDto,
  WebhookResponseDto,
  WebhookTestResponseDto,
} from './dto/webhook-response.dto';
import { toDeliveryDto, toWebhookDto } from './webhooks.mapper';
import { WebhooksService } from './webhooks.service';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ResourceFirst } from '../../common/http/resource-first';

const NotFound = () => ApiNotFound('No such webhook (or delivery) in this store.');

@ApiTags('Webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @Idempotent()
  @RequireScopes('webhooks.write')
  @ApiOperation({
    summary: 'Register a webhook',
    description:
      'Order events are POSTed to `url`, signed with `secret` (Standard Webhooks). Webhooks whose URLs name one ' +
      'destination (equal once parsed: the case of scheme and host, `.` and `..` segments, a default port) are ' +
      'grouped: one delivery per event, with one signature per webhook.',
  })
  @ApiBody({ type: CreateWebhookDto })
  @ApiCreatedResponse({ type: WebhookMessageResponseDto })
  @ApiValidationFailed()
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateWebhookDto,
  ): Promise<WebhookMessageResponseDto> {
    const view = await this.webhooks.create(principal.storeId, dto);
    return { status: 'success', message: 'Webhook created.', webhook: toWebhookDto(view) };
  }

  @Get()
  @RequireScopes('webhooks.read')
  @ApiOperation({ summary: 'List the webhooks of the store (newest first); `status` keeps those of one status' })
  @ApiOkResponse({ type: WebhookListResponseDto })
  @ApiValidationFailed({ status: ['status must be active or inactive.'] })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ActiveStatusPageQueryDto,
  ): Promise<WebhookListResponseDto> {
    const page = pageRequest(query);
    const { items, total } = await this.webhooks.list(principal.storeId, page, query.status);
    return paginated('webhooks', items.map(toWebhookDto), total, page);
  }

  @Get(':id')
  @RequireScopes('webhooks.read')
  @ApiOperation({ summary: 'A webhook with the summary of its last delivery' })
  @ApiIdParam('id')
  @ApiOkResponse({ type: WebhookResponseDto })
  @NotFound()
  async get(@CurrentPrincipal() principal: Principal, @Param('id', IntIdPipe) id: number): Promise<WebhookResponseDto> {
    return { status: 'success', webhook: toWebhookDto(await this.webhooks.get(principal.storeId, id)) };
  }

  @Patch(':id')
  @ResourceFirst(WebhooksService, (webhooks, storeId, ref) => webhooks.find(storeId, requireIntId(ref)))
  @RequireScopes('webhooks.write')
  @ApiOperation({ summary: 'Change a webhook (only the fields sent)' })
  @ApiIdParam('id')
  @ApiBody({ type: UpdateWebhookDto })
  @ApiOkResponse({ type: WebhookMessageResponseDto })
  @NotFound()
  @ApiValidationFailed()
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookMessageResponseDto> {
    const view = await this.webhooks.update(principal.storeId, id, dto);
    return { status: 'success', message: 'Webhook updated.', webhook: toWebhookDto(view) };
  }

  @Delete(':id')
  @RequireScopes('webhooks.write')
  @ApiOperation({ summary: 'Delete a webhook' })
  @ApiIdParam('id')
  @ApiOkResponse({ type: WebhookDeletedResponseDto })
  @NotFound()
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
  ): Promise<WebhookDeletedResponseDto> {
    const data = await this.webhooks.remove(principal.storeId, id);
    return { status: 'success', message: 'Webhook deleted.', data };
  }

  @Post(':id/test')
  @Idempotent()
  @HttpCode(200)
  @RequireScopes('webhooks.write')
  @ApiOperation({
    summary: 'Send a test event now',
    description:
      "One signed delivery to the webhook's URL, made before the answer: the webhook payload of a sample order " +
      '(`order_number` starting `TEST-`, `test: true`; `order_type` is `order_approved` when the webhook listens to it, ' +
      'else its first event). Sent whether the webhook is active or not, recorded in its delivery log with `order_id` null. ' +
      "The receiver's answer (or the failure) is in `delivery`.",
  })
  @ApiIdParam('id')
  @ApiOkResponse({ type: WebhookTestResponseDto })
  @NotFound()
  async test(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
  ): Promise<WebhookTestResponseDto> {
    const view = await this.webhooks.sendTest(principal.storeId, id);
    return { status: 'success', delivery: toDeliveryDto(view) };
  }

  @Get(':id/deliveries')
  @RequireScopes('webhooks.read')
  @ApiOperation({ summary: 'Delivery log of a webhook: request and response of each attempt (newest first)' })
  @ApiIdParam('id')
  @ApiOkResponse({ type: WebhookDeliveryListResponseDto })
  @NotFound()
  @ApiValidationFailed()
  async deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
    @Query() query: PaginationQueryDto,
  ): Promise<WebhookDeliveryListResponseDto> {
    const page = pageRequest(query);
    const { items, total } = await this.webhooks.listDeliveries(principal.storeId, id, page);
    return paginated('deliveries', items.map(toDeliveryDto), total, page);
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @Idempotent()
  @HttpCode(201)
  @RequireScopes('webhooks.write')
  @ApiOperation({
    summary: 'Send a recorded delivery again',
    description:
      'Queues a new attempt with the same payload and `webhook-id`; it appears in the delivery log as its own entry. ' +
      'A manual resend: it is sent whether the webhook is active or not, as the test event is.',
  })
  @ApiIdParam('id')
  @ApiIdParam('delivery_id', undefined, 41)
  @ApiCreatedResponse({ type: WebhookRedeliveryResponseDto })
  @NotFound()
  async redeliver(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IntIdPipe) id: number,
    @Param('delivery_id', IntIdPipe) deliveryId: number,
  ): Promise<WebhookRedeliveryResponseDto> {
    const view = await this.webhooks.redeliver(principal.storeId, id, deliveryId);
    return { status: 'success', message: 'Redelivery queued.', delivery: toDeliveryDto(view) };
  }
}
