import { Injectable } from '@nestjs/common';
import {
  centsToDecimal,
  type ChannelResult,
  type CustomerMessage,
  type CustomerMessageKind,
  type NotificationChannel,
} from '../../src/plugins';
import { ChatClient } from './chat-client';

const LABELS: Record<CustomerMessageKind, string> = {
  receipt: 'Receipt',
  refund: 'Refund',
  renewal_due: 'Renewal due',
  payment_failed: 'Payment failed',
  subscription_cancelled: 'Subscription cancelled',
  subscription_expired: 'Subscription expired',
};

/**
 * The `chat` channel: each customer message of a store (receipt, refund, the subscription notices)
 * is also posted to the deployment's chat, as one line that says what went out and to whom:
 *
 *     Receipt for Ana Maria: order ORD-20250101-AB12CD, 100.00 MZN (Casa do Código).
 *
 * Only facts the chat may see: no email address or phone number, and none of the message's links
 * (the portal link carries the transaction id, a renewal's checkout link a fresh pay token).
 *
 * The chat is the deployment's, one webhook URL for every store, so each line names the store's
 * brand. A store has no separate switch for it: its "Email my customers" switch turns all of its
 * customer messages off, this channel's included (a core rule for every channel).
 *
 * A webhook that does not answer 2xx throws, and the message is tried again with the job's
 * back-off; chat webhooks take no idempotency key, so a post whose answer was lost may appear twice.
 */
@Injectable()
export class ChatChannel implements NotificationChannel {
  readonly name = 'chat';

  constructor(private readonly chat: ChatClient) {}

  async send(message: CustomerMessage): Promise<ChannelResult> {
    await this.chat.post(chatLine(message));
    return { outcome: 'sent', recipient: 'chat' };
  }
}

export function chatLine(message: CustomerMessage): string {
  const { order, customer, store } = message;
  return (
    `${LABELS[message.kind]} for ${plain(customer.name)}: order ${order.number}, ` +
    `${centsToDecimal(order.amount)} ${order.currency} (${plain(store.brand)}).`
  );
}

/**
 * Text as text, on one line. Slack reads `<…>` as a mention or a link (`<!channel>`,
 * `<https://…|label>`) and `&` as the start of an escape: the three are escaped as Slack documents,
 * so a customer's name can neither ping the channel nor hide a link.
 */
function plain(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
