import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { parse } from 'qs';

/**
 * The few Stripe API endpoints the gateway uses, for the real `stripe` SDK pointed here with
 * `STRIPE_API_URL`: create and retrieve a Checkout Session, create and list refunds. Form-encoded bodies
 * with bracketed keys, JSON answers, `Idempotency-Key` replays the first answer.
 */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  expires_at: number;
}

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export class FakeStripe {
  readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly sessions = new Map<string, FakeSession>();
  readonly requests: StripeRequest[] = [];
  readonly refunds: Array<{
    id: string;
    object: 'refund';
    status: string;
    payment_intent: string;
    metadata: Record<string, string>;
  }> = [];
  refuseRefunds = false;
  /** When set, refunds are made and then their connection dropped, on every try: the answer is lost. */
  loseRefundAnswers = false;
  private readonly replies = new Map<string, string>();
  private server: Server = createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<unknown> {
    return new Promise((resolve) => this.server.close(resolve));
  }

  env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_URL: this.url };
  }

  sessionOf(orderNumber: string): FakeSession | undefined {
    return [...this.sessions.values()].find((s) => s.metadata.order_number === orderNumber);
  }

  /** The customer paid on the Stripe page. */
  complete(session: FakeSession): void {
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = `pi_${randomBytes(10).toString('hex')}`;
  }

  /** A Stripe event about a session, as its webhook sends it. */
  event(type: string, session: FakeSession): string {
    return JSON.stringify({
      id: `evt_${randomBytes(10).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: session },
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => resolve(body));
    });
    const body = parse(raw) as Record<string, unknown>;
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return this.send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && this.replies.has(`${path}:${key}`)) {
      // The refund was made; its answer is lost again on the retry.
      if (this.loseRefundAnswers && path === '/v1/refunds') return void req.socket.destroy();
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' })
        .end(this.replies.get(`${path}:${key}`));
      return;
    }
    let status = 200;
    let answer: unknown;
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const item = (body.line_items as Array<{ price_data: { currency: string; unit_amount: string } }>)[0];
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        url: `${this.url}/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        amount_total: Number(item.price_data.unit_amount),
        currency: item.price_data.currency,
        client_reference_id: (body.client_reference_id as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        success_url: body.success_url as string,
        cancel_url: body.cancel_url as string,
        expires_at: Number(body.expires_at),
      };
      this.sessions.set(id, session);
      answer = session;
    } else if (req.method === 'GET' && retrieve) {
      const session = this.sessions.get(retrieve[1]);
      if (!session)
        return this.send(res, 404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      answer = session;
    } else if (req.method === 'POST' && path === '/v1/refunds') {
      if (this.refuseRefunds) {
        return this.send(res, 400, {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: 'Charge has already been refunded.',
          },
        });
      }
      const refund = {
        id: `re_${randomBytes(10).toString('hex')}`,
        object: 'refund' as const,
        status: 'succeeded',
        payment_intent: body.payment_intent as string,
        metadata: (body.metadata as Record<string, string>) ?? {},
      };
      this.refunds.push(refund);
      if (this.loseRefundAnswers) {
        if (typeof key === 'string') this.replies.set(`${path}:${key}`, JSON.stringify(refund));
        return void req.socket.destroy();
      }
      answer = refund;
    } else if (req.method === 'GET' && path === '/v1/refunds') {
      const intent = new URL(req.url ?? '/', 'http://fake').searchParams.get('payment_intent');
      const data = this.refunds.filter((r) => !intent || r.payment_intent === intent);
      answer = { object: 'list', url: '/v1/refunds', has_more: false, data };
    } else {
      status = 404;
      answer = {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` },
      };
    }
    const text = JSON.stringify(answer);
    if (typeof key === 'string' && status === 200) this.replies.set(`${path}:${key}`, text);
    res
      .writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${randomBytes(6).toString('hex')}` })
      .end(text);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }
}
