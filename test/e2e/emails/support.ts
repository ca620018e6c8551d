import { DataSource } from 'typeorm';
import { waitUntil } from '../webhooks/helpers';

export { waitUntil };

export interface MessageRow {
  channel: string;
  kind: string;
  ref: string;
  order_id: number;
  event_id: string;
  state: string;
  attempts: number;
  recipient: string | null;
  detail: string | null;
  last_error: string | null;
}

export async function messageRows(
  dataSource: DataSource,
  where = 'true',
  params: unknown[] = [],
): Promise<MessageRow[]> {
  return dataSource.query(`SELECT * FROM customer_messages WHERE ${where} ORDER BY id`, params);
}

/** Waits until the message of this kind for this order reached a final state on the email channel. */
export async function settledMessage(
  dataSource: DataSource,
  kind: string,
  orderId: number,
  states = ['sent', 'skipped'],
): Promise<MessageRow> {
  let row: MessageRow | undefined;
  await waitUntil(
    async () => {
      [row] = await messageRows(dataSource, `channel = 'email' AND kind = $1 AND order_id = $2`, [kind, orderId]);
      return !!row && states.includes(row.state);
    },
    30_000,
    () => `${kind} of order ${orderId} in ${states.join('/')} (is ${row?.state ?? 'absent'})`,
  );
  return row!;
}

/** Waits until every customer-email job of these events completed: nothing more can be sent for them. */
export async function jobsCompleted(dataSource: DataSource, eventIds: string[]): Promise<void> {
  await waitUntil(
    async () => {
      const rows: Array<{ state: string }> = await dataSource.query(
        `SELECT state FROM pgboss.job WHERE name = 'event:customer-emails' AND data->>'id' = ANY($1)`,
        [eventIds],
      );
      return rows.length === eventIds.length && rows.every((r) => r.state === 'completed');
    },
    30_000,
    () => `customer-email jobs of ${eventIds.length} events completed`,
  );
}

export async function orderId(dataSource: DataSource, orderNumber: string): Promise<number> {
  const [row] = await dataSource.query('SELECT id FROM orders WHERE order_number = $1', [orderNumber]);
  return row.id;
}

/** The `href`s of an HTML part, in document order. */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}
