import { formatTimestamp } from '../../common/time';
import { WebhookDeliveryDto, WebhookDto } from './dto/webhook-response.dto';
import type { DeliveryView, WebhookView } from './webhooks.service';

export function toWebhookDto({ webhook, product, last }: WebhookView): WebhookDto {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    events: webhook.events,
    product: product ? { id: product.id, pid: product.pid, name: product.name } : null,
    status: webhook.status,
    secret: webhook.secret,
    summary: {
      last_delivery_at: formatTimestamp(last?.attemptedAt ?? null),
      last_delivery_status: last?.state ?? null,
      last_response_code: last?.responseCode ?? null,
    },
    created_at: formatTimestamp(webhook.createdAt),
    updated_at: formatTimestamp(webhook.updatedAt),
  };
}

export function toDeliveryDto({ delivery, webhookIds }: DeliveryView): WebhookDeliveryDto {
  const finished = delivery.state === 'success' || delivery.state === 'failed';
  return {
    id: delivery.id,
    event: delivery.eventKind,
    order_id: delivery.orderId,
    status: finished ? (delivery.state as 'success' | 'failed') : 'pending',
    webhook_ids: webhookIds,
    redelivery_of: delivery.redeliveryOf,
    request: { url: delivery.url, headers: delivery.requestHeaders, payload: delivery.payload },
    response:
      delivery.responseCode === null ? null : { status_code: delivery.responseCode, body: delivery.responseBody ?? '' },
    duration_ms: delivery.durationMs,
    error: delivery.error,
    attempted_at: formatTimestamp(delivery.attemptedAt),
    created_at: formatTimestamp(delivery.createdAt),
  };
}
