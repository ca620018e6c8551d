import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import pino, { Level, Logger } from 'pino';
import { AppConfig } from './config/app-config';

/**
 * Structured JSON logs (pino) for the service and the worker. Each request gets an id (the caller's
 * `X-Request-Id` when it is a plain token, else a UUID), echoed in `X-Request-Id` and carried by its
 * completion line and by any error logged for it.
 *
 * The request log is one `onResponse` hook that writes only when the line's level is enabled: at
 * the production level `warn` a successful request costs no log work at all. (pino-http built a
 * child logger and serialised the request for every request whatever the level, and nestjs-pino's
 * AsyncLocalStorage put a hook on every promise: 8 % of a request's CPU together.)
 */
export function createLogger(config: AppConfig): Logger {
  if (!prettyLogs(config)) return pino({ level: config.logLevel });
  // Loaded only here: production never pays for it. Synchronous, in this thread: a terminal is
  // slow anyway and a worker-thread transport would lose the last lines of a crash.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof import('pino-pretty');
  return pino(
    { level: config.logLevel },
    pretty({
      colorize: true,
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,startup,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
    }),
  );
}

/**
 * Human-readable lines (pino-pretty) for a person at a terminal in development; JSON lines for
 * anything else (a pipe, a file, a log collector, production, or `LOG_FORMAT=json`).
 */
export function prettyLogs(
  config: Pick<AppConfig, 'nodeEnv'> & Partial<Pick<AppConfig, 'logFormat'>>,
  stdoutIsTTY: boolean = Boolean(process.stdout.isTTY),
): boolean {
  return config.logFormat !== 'json' && config.nodeEnv === 'development' && stdoutIsTTY;
}

/**
 * Nest's start-up chatter (one line per module and per route) is for debugging: at `info` it
 * buried the lines a person starting the service looks for.
 */
const DEBUG_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Fastify's `genReqId`: the caller's `X-Request-Id` when it is a plain token, else a UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Path parameters that are credentials: a checkout link's pay token, a buyer's download token, a stored file's key. */
const SECRET_PARAMS = new Set(['payToken', 'token', 'key']);

/**
 * The URL as the request log shows it, with nothing in it that grants access: a credential in
 * the path (see SECRET_PARAMS) is shown as its route parameter (`/pay/token/:payToken/pay`), and
 * of the query only the names are kept (a portal link's `transaction_id` is a credential too). A
 * URL that matched no route is shown without its query.
 */
export function loggedUrl(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  const path = at < 0 ? request.url : request.url.slice(0, at);
  const query =
    at < 0
      ? ''
      : `?${request.url
          .slice(at + 1)
          .split('&')
          .map((pair) => pair.split('=', 1)[0])
          .join('&')}`;
  const route = request.routeOptions.url;
  if (!route) return path;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const shown = route.replace(/:(\w+)|\*$/g, (whole: string, name: string | undefined) => {
    const value = params[name ?? '*'];
    if (name && SECRET_PARAMS.has(name)) return whole;
    return typeof value === 'string' ? encodeURI(value) : whole;
  });
  return `${shown}${query}`;
}

/** Echoes the request id and writes one completion line per request (except ignored URLs). */
export function registerRequestLogging(
  fastify: FastifyInstance,
  logger: Logger,
  options: { ignore?: (url: string) => boolean } = {},
): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level: Level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (logger.isLevelEnabled(level) && !options.ignore?.(request.url)) {
      logger[level](
        {
          reqId: request.id,
          req: { method: request.method, url: loggedUrl(request) },
          res: { statusCode: status },
          responseTime: reply.elapsedTime,
        },
        'request completed',
      );
    }
    done();
  });
}

/** Nest's own messages (bootstrap, `new Logger(context)` in services) written through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && DEBUG_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /**
   * Nest appends the logger's context as the last argument. What comes before it is either a
   * message (`log('text')`), an object with a message (`error({ err }, 'text')`), or an error's
   * stack (`error('text', stack)`).
   */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const text = rest.find((p): p is string => typeof p === 'string');
    if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      this.logger[level]({ context, ...message }, text);
    } else if (level === 'error' && text !== undefined) {
      this.logger[level]({ context, stack: text }, String(message));
    } else {
      this.logger[level]({ context }, String(message));
    }
  }
}
