import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../common/http/api-docs';
import { PageEnvelopeDto } from '../../../common/pagination/pagination';
import { ORDER_EVENT_KINDS } from '../../billing';

export class WebhookProductDto {
  @ApiProperty({ type: 'integer', example: 12 }) id: number;
  @ApiProperty({ example: 'prod_8fK2mQ1xZ9pL3vN7' }) pid: string;
  @ApiProperty({ example: 'Photography course' }) name: string;
}

export class WebhookSummaryDto {
  @ApiTimestamp({ example: '2025-03-01T10:15:30.123000Z', nullable: true })
  last_delivery_at: string | null;

  @ApiNullable({ type: 'string', enum: ['success', 'failed'], example: 'success' })
  last_delivery_status: 'success' | 'failed' | null;

  @ApiNullable({ type: 'integer', example: 200, description: 'null when no response came' })
  last_response_code: number | null;
}

export class WebhookDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiNullable({ type: 'string', example: 'Orders to CRM' }) name: string | null;
  @ApiProperty({ example: 'https://example.com/hooks/orders' }) url: string;
  @ApiProperty({ enum: ORDER_EVENT_KINDS, isArray: true, example: ['order_approved'] }) events: string[];
  @ApiNullable({ type: WebhookProductDto }) product: WebhookProductDto | null;
  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' }) status: 'active' | 'inactive';
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Standard Webhooks signing secret: verify `webhook-signature` with it',
  })
  secret: string;
  @ApiProperty({ type: WebhookSummaryDto }) summary: WebhookSummaryDto;
  @ApiTimestamp({ example: '2025-03-01T10:00:00.000000Z' }) created_at: string;
  @ApiTimestamp({ example: '2025-03-01T10:00:00.000000Z' }) updated_at: string;
}

export class WebhookResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: WebhookDto }) webhook: WebhookDto;
}

export class WebhookMessageResponseDto extends WebhookResponseDto {
  @ApiProperty({ example: 'Webhook created.' }) message: string;
}

export class WebhookListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: [WebhookDto] }) webhooks: WebhookDto[];
}

class DeletedWebhookDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'https://example.com/hooks/orders' }) url: string;
}

export class WebhookDeletedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Webhook deleted.' }) message: string;
  @ApiProperty({ type: DeletedWebhookDto }) data: DeletedWebhookDto;
}

class DeliveryRequestDto {
  @ApiProperty({ example: 'https://example.com/hooks/orders' }) url: string;

  @ApiNullable({
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    example: {
      'content-type': 'application/json',
      'webhook-id': 'msg_2mB6kQ0rZy1uQeGTHfWb9pLx3Ac',
      'webhook-timestamp': '1740824130',
      'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    },
    description: 'Headers sent; null before the attempt',
  })
  headers: Record<string, string> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { order_type: 'order_approved', order_number: 'ORD-7Q2K9X', status: 'approved', amount: 100, test: false },
    description:
      'The webhook payload, as sent. Its last field `test` (boolean) is true for an order of the ' +
      "store's test mode and for a test event, false for a live order. An approved order with license keys " +
      'carries `license_keys` (as `GET /v1/orders/{id}` shows them) just before it.',
  })
  payload: object;
}

class DeliveryResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status_code: number;
  @ApiProperty({ example: '{"received":true}', description: 'First 2048 characters of the body' }) body: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ type: 'integer', example: 41 }) id: number;
  @ApiProperty({ enum: ORDER_EVENT_KINDS, example: 'order_approved' }) event: string;
  @ApiNullable({
    type: 'integer',
    example: 1203,
    description:
      'null for a test event (`POST /v1/webhooks/{id}/test`) and for an event kind of a plugin that is about no order',
  })
  order_id: number | null;
  @ApiProperty({ enum: ['pending', 'success', 'failed'], example: 'success' }) status: 'pending' | 'success' | 'failed';
  @ApiProperty({
    type: 'integer',
    isArray: true,
    example: [7, 9],
    description: 'Webhooks of the URL group this delivery was sent for',
  })
  webhook_ids: number[];
  @ApiNullable({ type: 'integer', example: null, description: 'The first delivery, when this is a redelivery' })
  redelivery_of: number | null;
  @ApiProperty({ type: DeliveryRequestDto }) request: DeliveryRequestDto;
  @ApiNullable({ type: DeliveryResponseDto, description: 'null when no response came' })
  response: DeliveryResponseDto | null;
  @ApiNullable({ type: 'integer', example: 87 }) duration_ms: number | null;
  @ApiNullable({ type: 'string', example: 'The receiver answered 500.', description: 'Why the attempt failed' })
  error: string | null;
  @ApiTimestamp({ example: '2025-03-01T10:15:30.123000Z', nullable: true }) attempted_at: string | null;
  @ApiTimestamp({ example: '2025-03-01T10:15:29.981000Z' }) created_at: string;
}

export class WebhookDeliveryListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) deliveries: WebhookDeliveryDto[];
}

export class WebhookRedeliveryResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Redelivery queued.' }) message: string;
  @ApiProperty({ type: WebhookDeliveryDto }) delivery: WebhookDeliveryDto;
}

export class WebhookTestResponseDto {
  @ApiProperty({
    example: 'success',
    description: '`success` once the attempt is recorded, whatever the receiver answered: see `delivery.status`',
  })
  status: 'success';
  @ApiProperty({ type: WebhookDeliveryDto }) delivery: WebhookDeliveryDto;
}
