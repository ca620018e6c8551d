import fastify from 'fastify';
import pino from 'pino';
import { PinoNestLogger, registerRequestLogging, requestIdOf } from '../../src/logging';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** A Fastify server wired as the application wires it, with a route per status. */
async function server(level: string, ignore?: (url: string) => boolean) {
  const { logger, lines } = capture(level);
  const app = fastify({ genReqId: requestIdOf, requestIdHeader: false });
  registerRequestLogging(app, logger, { ignore });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/missing', async (_req, reply) => reply.code(404).send({ status: 'error' }));
  app.get('/health', async () => ({ status: 'ok' }));
  app.post('/pay/token/:payToken/pay', async () => ({ ok: true }));
  app.get('/pay/order/:orderNumber', async () => ({ ok: true }));
  app.get('/cdn/:key/:filename', async () => ({ ok: true }));
  app.get('/pay/download/:token', async () => ({ ok: true }));
  await app.ready();
  return { app, lines };
}

describe('request logging', () => {
  it('echoes a plain caller request id and generates one otherwise', async () => {
    const { app } = await server('info');
    const given = await app.inject({ url: '/ok', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const unsafe = await app.inject({ url: '/ok', headers: { 'x-request-id': 'no spaces or <tags>' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await app.close();
  });

  it('writes one completion line with the request id, at the level of the status', async () => {
    const { app, lines } = await server('warn');
    await app.inject({ url: '/ok', headers: { 'x-request-id': 'ok-1' } });
    expect(lines).toHaveLength(0); // 200 is info, below warn

    await app.inject({ url: '/missing', headers: { 'x-request-id': 'nf-1' } });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: 'nf-1',
        req: { method: 'GET', url: '/missing' },
        res: { statusCode: 404 },
        msg: 'request completed',
        responseTime: expect.any(Number),
      }),
    ]);
    await app.close();
  });

  it('writes no credential: pay tokens, download tokens and file keys by their parameter, query values left out', async () => {
    const { app, lines } = await server('info');
    await app.inject({ method: 'POST', url: '/pay/token/Secr3tPayTokenXYZ/pay?utm_source=mail' });
    await app.inject({ url: '/pay/order/ORD-1?transaction_id=portal-secret&x=1' });
    await app.inject({ url: '/cdn/file-key-secret/book%20one.pdf' });
    await app.inject({ url: '/pay/download/AAAABgDownloadGrantSecret' });
    await app.inject({ url: '/no/such/route?token=abc' });
    expect(lines.map((line) => (line.req as { url: string }).url)).toEqual([
      '/pay/token/:payToken/pay?utm_source',
      '/pay/order/ORD-1?transaction_id&x',
      '/cdn/:key/book%20one.pdf',
      '/pay/download/:token',
      '/no/such/route',
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/Secr3t|portal-secret|file-key-secret|DownloadGrantSecret|abc/);
    await app.close();
  });

  it('skips ignored URLs but still gives them an id', async () => {
    const { app, lines } = await server('info', (url) => url === '/health');
    const health = await app.inject({ url: '/health' });
    expect(health.headers['x-request-id']).toBeDefined();
    expect(lines).toHaveLength(0);
    await app.inject({ url: '/ok' });
    expect(lines).toHaveLength(1);
    await app.close();
  });
});

describe('Nest messages through pino', () => {
  it('keeps the context, the message, an object payload and an error', () => {
    const { logger, lines } = capture('info');
    const nest = new PinoNestLogger(logger);
    nest.log('Payment gateway sandbox serves mpesa, emola', 'Payments');
    // Nest's start-up chatter goes to debug, so it is not written at info.
    nest.log('Nest application successfully started', 'NestApplication');
    nest.error({ reqId: 'r1', err: new Error('boom') }, 'Unhandled error', 'HTTP');
    nest.error('Delivery failed', 'Error: stack line', 'Webhooks');
    nest.debug('not written at info', 'X');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, context: 'Payments', msg: 'Payment gateway sandbox serves mpesa, emola' }),
      expect.objectContaining({
        level: 50,
        context: 'HTTP',
        reqId: 'r1',
        msg: 'Unhandled error',
        err: expect.objectContaining({ message: 'boom' }),
      }),
      expect.objectContaining({ level: 50, context: 'Webhooks', msg: 'Delivery failed', stack: 'Error: stack line' }),
    ]);
  });
});
