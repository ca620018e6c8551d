import { EventEmitter } from 'node:events';
import pino from 'pino';
import { PinoNestLogger, requestLogging } from '../../src/logging';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Just enough of Express's request and response for the middleware. */
function exchange(headers: Record<string, string> = {}, url = '/v1/orders') {
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    headers: {} as Record<string, string>,
    setHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    },
  });
  const req = { headers, method: 'GET', url, originalUrl: url } as unknown as Parameters<ReturnType<typeof requestLogging>>[0];
  return { req, res: res as typeof res & Parameters<ReturnType<typeof requestLogging>>[1] };
}

describe('request logging', () => {
  it('echoes a plain caller request id and generates one otherwise', () => {
    const { logger } = capture('info');
    const log = requestLogging(logger);
    const given = exchange({ 'x-request-id': 'abc-123' });
    log(given.req, given.res, () => undefined);
    expect(given.res.headers['x-request-id']).toBe('abc-123');
    expect(given.req.id).toBe('abc-123');

    const unsafe = exchange({ 'x-request-id': 'no spaces\nor newlines' });
    log(unsafe.req, unsafe.res, () => undefined);
    expect(unsafe.res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes one completion line with the request id, at the level of the status', () => {
    const { logger, lines } = capture('warn');
    const log = requestLogging(logger);
    const ok = exchange({ 'x-request-id': 'ok-1' });
    log(ok.req, ok.res, () => undefined);
    ok.res.emit('finish');
    expect(lines).toHaveLength(0); // 200 is info, below warn

    const missing = exchange({ 'x-request-id': 'nf-1' });
    log(missing.req, missing.res, () => undefined);
    missing.res.statusCode = 404;
    missing.res.emit('finish');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: 'nf-1',
        req: { method: 'GET', url: '/v1/orders' },
        res: { statusCode: 404 },
        msg: 'request completed',
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it('skips ignored URLs', () => {
    const { logger, lines } = capture('info');
    const log = requestLogging(logger, { ignore: (url) => url === '/v1/health' });
    const health = exchange({}, '/v1/health');
    log(health.req, health.res, () => undefined);
    health.res.emit('finish');
    expect(lines).toHaveLength(0);
    expect(health.res.headers['x-request-id']).toBeDefined();
  });
});

describe('Nest messages through pino', () => {
  it('keeps the context, the message, an object payload and an error', () => {
    const { logger, lines } = capture('info');
    const nest = new PinoNestLogger(logger);
    nest.log('Nest application successfully started', 'NestApplication');
    nest.error({ reqId: 'r1', err: new Error('boom') }, 'Unhandled error', 'HTTP');
    nest.error('Delivery failed', 'Error: stack line', 'Webhooks');
    nest.debug('not written at info', 'X');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, context: 'NestApplication', msg: 'Nest application successfully started' }),
      expect.objectContaining({ level: 50, context: 'HTTP', reqId: 'r1', msg: 'Unhandled error', err: expect.objectContaining({ message: 'boom' }) }),
      expect.objectContaining({ level: 50, context: 'Webhooks', msg: 'Delivery failed', stack: 'Error: stack line' }),
    ]);
  });
});
