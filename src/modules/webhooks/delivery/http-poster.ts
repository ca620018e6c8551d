import { Agent as HttpAgent, request as httpRequest, IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { DestinationRefusedError, resolveDestination } from './destination-guard';

/** One attempt, 10 seconds in total (DNS, connect, request and response). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is kept for the report. */
export const RESPONSE_EXCERPT_CHARS = 2048;
/** Bytes read from a response before the rest is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostResult {
  ok: boolean;
  responseCode: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Refuse non-public destinations (production, unless WEBHOOK_ALLOW_PRIVATE). */
  guard: boolean;
  timeoutMs?: number;
}

/** Idle keep-alive sockets are closed after this, below the 5 s a Node server keeps them. */
const IDLE_SOCKET_MS = 4_000;
/** Destinations whose pools are kept; past this the pools are dropped and built again. */
const MAX_POOLS = 256;
const MAX_SOCKETS_PER_DESTINATION = 16;

/**
 * One keep-alive connection pool per destination (scheme, checked address, port and TLS name), so
 * a busy receiver is not dialled again for every delivery. A pool holds only sockets to the address
 * the guard checked, as `agent: false` did.
 */
const pools = new Map<string, HttpAgent>();

function poolFor(secure: boolean, address: string, port: string | number, servername: string | undefined): HttpAgent {
  const key = `${secure ? 'https' : 'http'}|${address}|${port}|${servername ?? ''}`;
  let pool = pools.get(key);
  if (!pool) {
    if (pools.size >= MAX_POOLS) {
      for (const old of pools.values()) old.destroy();
      pools.clear();
    }
    const options = { keepAlive: true, maxSockets: MAX_SOCKETS_PER_DESTINATION, timeout: IDLE_SOCKET_MS };
    pool = secure ? new HttpsAgent(options) : new HttpAgent(options);
    pools.set(key, pool);
  }
  return pool;
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is a failed delivery, and following one
 * could lead past the SSRF check); the connection goes to the address that was checked.
 */
export async function postWebhook(req: PostRequest): Promise<PostResult> {
  const started = performance.now();
  const timeoutMs = req.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  let responseCode: number | null = null;
  try {
    const destination = await abortable(resolveDestination(req.url, req.guard), signal);
    const { url, address, family } = destination;
    const secure = url.protocol === 'https:';
    const body = Buffer.from(req.body, 'utf8');
    const port = url.port || (secure ? 443 : 80);
    // TLS must still verify the certificate against the name, not the address connected to.
    const servername = secure && !isIP(url.hostname) ? url.hostname : undefined;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = (secure ? httpsRequest : httpRequest)({
        method: 'POST',
        host: address,
        family,
        port,
        path: `${url.pathname}${url.search}`,
        servername,
        headers: { ...req.headers, host: url.host, 'content-length': String(body.length) },
        signal,
        agent: poolFor(secure, address, port, servername),
      });
      outgoing.once('response', resolve);
      outgoing.once('error', reject);
      outgoing.end(body);
    });
    responseCode = response.statusCode ?? null;
    const text = await readExcerpt(response);
    const ok = responseCode !== null && responseCode >= 200 && responseCode < 300;
    return {
      ok,
      responseCode,
      responseBody: text,
      durationMs: elapsed(),
      error: ok ? null : `The receiver answered ${responseCode}.`,
    };
  } catch (error) {
    return {
      ok: false,
      responseCode,
      responseBody: null,
      durationMs: elapsed(),
      error: describe(error, signal, timeoutMs),
    };
  }
}

async function readExcerpt(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_RESPONSE_BYTES) {
      response.destroy();
      break;
    }
  }
  // PostgreSQL's text holds no NUL character: a receiver's binary answer is kept, its NULs shown as U+FFFD.
  return Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS).replace(/\0/g, '\uFFFD');
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describe(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `No complete response within ${timeoutMs / 1000} seconds.`;
  if (error instanceof DestinationRefusedError) return `Refused: ${error.message}`;
  const e = error as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? 'Delivery failed.');
}
