import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CurrentPrincipal,
  domainEvent,
  DomainEvents,
  Idempotent,
  type Principal,
  RequireScopes,
  Transactions,
} from '../../src/plugins';
import { CHAT_TEST_REQUESTED } from './chat-events';

/** `POST /v1/chat/test`: a test message to the store's chat, and a `chat_test` webhook. */
@ApiTags('Chat')
@Controller('v1/chat')
export class ChatController {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: DomainEvents,
  ) {}

  @Post('test')
  @HttpCode(202)
  @RequireScopes('chat.write')
  @Idempotent()
  @ApiOperation({
    summary: "Send a test message to the store's chat (after commit) and to the webhooks of `chat_test`",
  })
  @ApiAcceptedResponse({
    description: 'The event is recorded; the chat and the webhooks hear of it after commit.',
    schema: {
      type: 'object',
      required: ['status', 'event_id'],
      properties: { status: { type: 'string', example: 'success' }, event_id: { type: 'string', format: 'uuid' } },
    },
  })
  async test(@CurrentPrincipal() principal: Principal): Promise<{ status: 'success'; event_id: string }> {
    const event = domainEvent({
      type: CHAT_TEST_REQUESTED,
      storeId: principal.storeId,
      aggregate: { type: 'store', id: principal.storeId },
      from: null,
      to: 'requested',
      refs: { sellerId: principal.sellerId },
      occurredAt: new Date().toISOString(),
    });
    // Published in a transaction: the webhook outbox row and the chat job commit together; the
    // chat is only called after commit, by the listener.
    await this.transactions.run((manager) => this.events.publish(event, manager));
    return { status: 'success', event_id: event.id };
  }
}
