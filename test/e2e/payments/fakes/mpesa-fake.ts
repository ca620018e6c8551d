import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import forge from 'node-forge';

/**
 * A local M-Pesa Mozambique OpenAPI for the tests, speaking the wire protocol Vodacom documents:
 * C2B single stage (POST), transaction status query (GET, of payments and of reversals) and reversal (PUT), each checking the
 * bearer token (the API key RSA-encrypted with our public key, PKCS#1 v1.5, decrypted here with the
 * private key), the `Origin` header and every `input_*` field, and answering with `output_*` fields
 * and `INS-` codes under the HTTP statuses the portal lists for them.
 *
 * The customer's number decides what happens (see {@link Scenario}); tests set it per number.
 */
export type Scenario =
  /** INS-0 with a transaction id, after `delayMs`. */
  | { kind: 'success'; delayMs?: number }
  /** The customer cancelled on the phone (INS-5, 422). */
  | { kind: 'cancelled' }
  /** Insufficient balance (INS-2006, 422). */
  | { kind: 'insufficient' }
  /** Vodacom's own timeout (INS-9, 408); the payment's fate is `finalStatus` for later queries. */
  | { kind: 'ins9'; finalStatus: TransactionStatus }
  /** No answer at all (the request hangs until the client gives up); queries then report `finalStatus`. */
  | { kind: 'silent'; finalStatus: TransactionStatus }
  /** The connection is dropped after the request arrived; queries report `finalStatus`. */
  | { kind: 'drop'; finalStatus: TransactionStatus };

export type TransactionStatus = 'Completed' | 'Cancelled' | 'Pending' | 'Expired';

export interface FakeTransaction {
  thirdPartyReference: string;
  transactionReference: string;
  msisdn: string;
  amount: string;
  transactionId: string;
  conversationId: string;
  status: TransactionStatus;
  reversed: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body (C2B, reversal) or the query parameters (query). */
  fields: Record<string, string>;
  /** The API key the bearer token decrypted to, or null when it did not decrypt. */
  apiKey: string | null;
}

export const C2B_PATH = '/ipg/v1x/c2bPayment/singleStage/';
export const QUERY_PATH = '/ipg/v1x/queryTransactionStatus/';
export const REVERSAL_PATH = '/ipg/v1x/reversal/';

export class FakeMpesa {
  readonly apiKey = `key_${randomBytes(12).toString('hex')}`;
  readonly serviceProviderCode = '171717';
  readonly origin = 'developer.mpesa.vm.co.mz';
  readonly initiatorIdentifier = 'Shop123';
  readonly securityCredential = `cred_${randomBytes(8).toString('hex')}`;
  /** As Vodacom's portal shows it: the DER public key in base64, no PEM armour. */
  readonly publicKeyBase64: string;
  private readonly privateKey: forge.pki.rsa.PrivateKey;

  readonly requests: RecordedRequest[] = [];
  readonly transactions = new Map<string, FakeTransaction>();
  readonly scenarios = new Map<string, Scenario>();
  /** When set, every reversal is refused with this code and description. */
  refuseReversals: { code: string; description: string } | null = null;
  /** When set, reversals get their connection dropped before anything is reversed. */
  dropReversals = false;
  /** When set, reversals are made and then their connection dropped: the answer is lost. */
  loseReversalAnswers = false;
  /** When set, reversals are made and answered without their outcome: INS-9 (408), or a proxy's 502 page. */
  ambiguousReversals: 'ins9' | 'bad-gateway' | null = null;
  /** The reversals made, by their third-party reference (the status query finds them by it). */
  readonly reversals = new Map<string, { transactionId: string; conversationId: string; reversed: string }>();
  /** Errors found in requests (a wrong field or header): tests assert this stays empty. */
  readonly violations: string[] = [];

  private server: Server;
  private readonly sockets = new Set<Socket>();
  url = '';

  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKeyBase64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    this.privateKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The service's MPESA_* variables pointing at this fake. */
  env(): Record<string, string> {
    return {
      MPESA_API_KEY: this.apiKey,
      MPESA_PUBLIC_KEY: this.publicKeyBase64,
      MPESA_SERVICE_PROVIDER_CODE: this.serviceProviderCode,
      MPESA_INITIATOR_IDENTIFIER: this.initiatorIdentifier,
      MPESA_SECURITY_CREDENTIAL: this.securityCredential,
      MPESA_C2B_URL: `${this.url}${C2B_PATH}`,
      MPESA_QUERY_URL: `${this.url}${QUERY_PATH}`,
      MPESA_REVERSAL_URL: `${this.url}${REVERSAL_PATH}`,
    };
  }

  /** `841234567` → the scenario of `258841234567`. */
  on(localNumber: string, scenario: Scenario): void {
    this.scenarios.set(`258${localNumber}`, scenario);
  }

  c2bRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === C2B_PATH);
  }

  transactionOf(orderNumber: string): FakeTransaction | undefined {
    return [...this.transactions.values()].find((t) => t.transactionReference === orderNumber);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => resolve(body));
    });
    let fields: Record<string, string>;
    if (req.method === 'GET') fields = Object.fromEntries(url.searchParams);
    else {
      try {
        fields = JSON.parse(raw) as Record<string, string>;
      } catch {
        return this.answer(res, 400, { output_error: 'Bad JSON' });
      }
    }
    const apiKey = this.decryptBearer(req.headers.authorization);
    this.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, fields, apiKey });

    // Authentication and headers, as the gateway checks them before anything else.
    if (apiKey !== this.apiKey)
      return this.answer(res, 401, { output_ResponseCode: 'INS-2', output_ResponseDesc: 'Invalid API Key' });
    if (req.headers.origin !== this.origin) {
      this.violations.push(`Origin header: ${req.headers.origin}`);
      return this.answer(res, 400, { output_error: 'Origin not allowed' });
    }
    if (req.method !== 'GET' && !String(req.headers['content-type']).startsWith('application/json')) {
      this.violations.push(`Content-Type: ${req.headers['content-type']}`);
      return this.answer(res, 400, { output_error: 'Content-Type must be application/json' });
    }
    if (url.pathname === C2B_PATH && req.method === 'POST') return this.c2b(req, res, fields);
    if (url.pathname === QUERY_PATH && req.method === 'GET') return this.query(res, fields);
    if (url.pathname === REVERSAL_PATH && req.method === 'PUT') return this.reversal(req, res, fields);
    this.violations.push(`unknown route ${req.method} ${url.pathname}`);
    return this.answer(res, 404, { output_error: 'Not found' });
  }

  private decryptBearer(header: string | undefined): string | null {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!token) return null;
    try {
      // PKCS#1 v1.5 (Node 20 refuses this padding in privateDecrypt; node-forge does it).
      return this.privateKey.decrypt(forge.util.decode64(token), 'RSAES-PKCS1-V1_5');
    } catch {
      return null;
    }
  }

  /** INS-21 (400) with the list of what is wrong, recorded as a violation. */
  private checkFields(res: ServerResponse, fields: Record<string, string>, expected: Record<string, RegExp>): boolean {
    const problems = Object.entries(expected)
      .filter(([name, pattern]) => typeof fields[name] !== 'string' || !pattern.test(fields[name]))
      .map(([name]) => name);
    const extra = Object.keys(fields).filter((name) => !(name in expected));
    if (!problems.length && !extra.length) return true;
    this.violations.push(`fields: bad ${problems.join(',')} extra ${extra.join(',')}`);
    this.answer(res, 400, { output_ResponseCode: 'INS-21', output_ResponseDesc: 'Parameter validations failed' });
    return false;
  }

  private async c2b(req: IncomingMessage, res: ServerResponse, fields: Record<string, string>): Promise<void> {
    const ok = this.checkFields(res, fields, {
      input_TransactionReference: /^[A-Za-z0-9-]{1,20}$/,
      input_CustomerMSISDN: /^2588[2-7]\d{7}$/,
      input_Amount: /^\d+(\.\d{1,2})?$/,
      input_ThirdPartyReference: /^[A-Za-z0-9]{1,32}$/,
      input_ServiceProviderCode: new RegExp(`^${this.serviceProviderCode}$`),
    });
    if (!ok) return;
    const reference = fields.input_ThirdPartyReference;
    if (this.transactions.has(reference)) {
      return this.answer(res, 409, {
        output_ResponseCode: 'INS-10',
        output_ResponseDesc: 'Duplicate Transaction',
        output_ThirdPartyReference: reference,
      });
    }
    const scenario = this.scenarios.get(fields.input_CustomerMSISDN) ?? { kind: 'success' };
    const tx: FakeTransaction = {
      thirdPartyReference: reference,
      transactionReference: fields.input_TransactionReference,
      msisdn: fields.input_CustomerMSISDN,
      amount: fields.input_Amount,
      transactionId: randomBytes(5).toString('hex').toUpperCase(),
      conversationId: randomBytes(16).toString('hex'),
      status: 'Pending',
      reversed: false,
    };
    this.transactions.set(reference, tx);
    const output = {
      output_ConversationID: tx.conversationId,
      output_ThirdPartyReference: reference,
      output_TransactionID: tx.transactionId,
    };
    switch (scenario.kind) {
      case 'success':
        // The money moves when the customer confirms; the answer may come later (or never reach us).
        tx.status = 'Completed';
        if (scenario.delayMs) await new Promise((r) => setTimeout(r, scenario.delayMs));
        return this.answer(res, 201, {
          ...output,
          output_ResponseCode: 'INS-0',
          output_ResponseDesc: 'Request processed successfully',
        });
      case 'cancelled':
        tx.status = 'Cancelled';
        return this.answer(res, 422, {
          ...output,
          output_TransactionID: '',
          output_ResponseCode: 'INS-5',
          output_ResponseDesc: 'Transaction cancelled by customer',
        });
      case 'insufficient':
        tx.status = 'Cancelled';
        return this.answer(res, 422, {
          ...output,
          output_TransactionID: '',
          output_ResponseCode: 'INS-2006',
          output_ResponseDesc: 'Insufficient balance',
        });
      case 'ins9':
        tx.status = scenario.finalStatus;
        return this.answer(res, 408, {
          ...output,
          output_TransactionID: '',
          output_ResponseCode: 'INS-9',
          output_ResponseDesc: 'Request timeout',
        });
      case 'silent':
        tx.status = scenario.finalStatus;
        // Never answered: the client's own limit ends it.
        req.socket.setTimeout(0);
        return;
      case 'drop':
        tx.status = scenario.finalStatus;
        req.socket.destroy();
        return;
    }
  }

  private query(res: ServerResponse, fields: Record<string, string>): void {
    const ok = this.checkFields(res, fields, {
      input_ThirdPartyReference: /^[A-Za-z0-9]{1,32}$/,
      input_QueryReference: /^[A-Za-z0-9]{1,32}$/,
      input_ServiceProviderCode: new RegExp(`^${this.serviceProviderCode}$`),
    });
    if (!ok) return;
    const tx =
      this.transactions.get(fields.input_QueryReference) ??
      [...this.transactions.values()].find(
        (t) => t.transactionId === fields.input_QueryReference || t.conversationId === fields.input_QueryReference,
      );
    const reversal = this.reversals.get(fields.input_QueryReference);
    if (!tx && reversal) {
      return this.answer(res, 200, {
        output_ConversationID: reversal.conversationId,
        output_ResponseCode: 'INS-0',
        output_ResponseDesc: 'Request processed successfully',
        output_ResponseTransactionStatus: 'Completed',
        output_ThirdPartyReference: fields.input_ThirdPartyReference,
      });
    }
    if (!tx) {
      return this.answer(res, 400, {
        output_ResponseCode: 'INS-18',
        output_ResponseDesc: 'Invalid TransactionID Used',
        output_ThirdPartyReference: fields.input_ThirdPartyReference,
      });
    }
    return this.answer(res, 200, {
      output_ConversationID: tx.conversationId,
      output_ResponseCode: 'INS-0',
      output_ResponseDesc: 'Request processed successfully',
      output_ResponseTransactionStatus: tx.status,
      output_ThirdPartyReference: fields.input_ThirdPartyReference,
    });
  }

  private reversal(req: IncomingMessage, res: ServerResponse, fields: Record<string, string>): void {
    const ok = this.checkFields(res, fields, {
      input_TransactionID: /^\w{1,40}$/,
      input_SecurityCredential: /^.+$/,
      input_InitiatorIdentifier: /^.+$/,
      input_ThirdPartyReference: /^[A-Za-z0-9]{1,32}$/,
      input_ServiceProviderCode: new RegExp(`^${this.serviceProviderCode}$`),
      input_ReversalAmount: /^\d+(\.\d{1,2})?$/,
    });
    if (!ok) return;
    if (this.dropReversals) {
      req.socket.destroy();
      return;
    }
    if (fields.input_InitiatorIdentifier !== this.initiatorIdentifier) {
      return this.answer(res, 400, {
        output_ResponseCode: 'INS-24',
        output_ResponseDesc: 'Invalid InitiatorIdentifier Used',
      });
    }
    if (fields.input_SecurityCredential !== this.securityCredential) {
      return this.answer(res, 400, {
        output_ResponseCode: 'INS-25',
        output_ResponseDesc: 'Invalid SecurityCredential Used',
      });
    }
    if (this.refuseReversals) {
      return this.answer(res, 400, {
        output_ResponseCode: this.refuseReversals.code,
        output_ResponseDesc: this.refuseReversals.description,
      });
    }
    const tx = [...this.transactions.values()].find(
      (t) => t.transactionId === fields.input_TransactionID && t.status === 'Completed',
    );
    if (!tx || tx.reversed || tx.amount !== fields.input_ReversalAmount) {
      return this.answer(res, 400, {
        output_ResponseCode: 'INS-18',
        output_ResponseDesc: 'Invalid TransactionID Used',
      });
    }
    tx.reversed = true;
    const reversal = {
      transactionId: randomBytes(5).toString('hex').toUpperCase(),
      conversationId: randomBytes(16).toString('hex'),
      reversed: tx.transactionId,
    };
    this.reversals.set(fields.input_ThirdPartyReference, reversal);
    if (this.loseReversalAnswers) {
      req.socket.destroy();
      return;
    }
    if (this.ambiguousReversals === 'ins9')
      return this.answer(res, 408, { output_ResponseCode: 'INS-9', output_ResponseDesc: 'Request timeout' });
    if (this.ambiguousReversals === 'bad-gateway') {
      res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    return this.answer(res, 200, {
      output_ConversationID: reversal.conversationId,
      output_ResponseCode: 'INS-0',
      output_ResponseDesc: 'Request processed successfully',
      output_TransactionID: reversal.transactionId,
      output_ThirdPartyReference: fields.input_ThirdPartyReference,
    });
  }

  private answer(res: ServerResponse, status: number, body: Record<string, string>): void {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }
}
