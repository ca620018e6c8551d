import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** What Node's HTTP parser refuses before Fastify has a request, by the parser's error code. */
const REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large (at most 16 KiB with the URL).' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request timed out.' },
};
const MALFORMED = { status: 400, message: 'Malformed HTTP request.' };

/**
 * Fastify's `clientErrorHandler`: a request Node's parser could not read (a URL or headers over its
 * 16 KiB, a malformed request line) is answered in the contract's error shape, `{status: "error",
 * message}`, as every other error is (Fastify's own body has neither), and the connection closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = REFUSALS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ status: 'error', message });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
