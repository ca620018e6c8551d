import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import pino, { Level, Logger } from 'pino';
import { AppConfig } from './config/app-config';

/**
 * Structured JSON logs (pino) for the service and the worker. Each request gets an id (the caller's
 * `X-Request-Id` when it is a plain token, else a UUID), echoed in `X-Request-Id` and carried by its
 * completion line and by any error logged for it.
 *
 * The request log is one `finish` listener per request that writes only when the line's level is
 * enabled: at the production level `warn` a successful request costs no log work at all. (pino-http
 * built a child logger and serialised the request for every request whatever the level, and
 * nestjs-pino's AsyncLocalStorage put a hook on every promise: 8 % of a request's CPU together.)
 */
export function createLogger(config: AppConfig): Logger {
  return pino({ level: config.logLevel });
}

export type RequestWithId = Request & { id?: string };

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestLogging(logger: Logger, options: { ignore?: (url: string) => boolean } = {}) {
  return function logRequest(req: RequestWithId, res: Response, next: NextFunction): void {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (!options.ignore?.(req.url)) {
      const start = process.hrtime.bigint();
      res.once('finish', () => {
        const level: Level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        logger[level](
          {
            reqId: id,
            req: { method: req.method, url: req.originalUrl },
            res: { statusCode: res.statusCode },
            responseTime: Number(process.hrtime.bigint() - start) / 1e6,
          },
          'request completed',
        );
      });
    }
    next();
  };
}

/** Nest's own messages (bootstrap, `new Logger(context)` in services) written through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
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
