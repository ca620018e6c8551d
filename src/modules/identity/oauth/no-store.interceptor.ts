import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, catchError, throwError } from 'rxjs';
import { AUTH_REALM } from '../auth/auth.guard';
import { OAuthError } from './oauth-error';

/**
 * Token responses must never be cached (RFC 6749 §5.1), errors included. A 401 carries the
 * `Bearer realm` challenge of every /v1 401 (the security schemes of the OpenAPI description); a client that tried HTTP Basic and
 * failed is also told so with a `Basic` challenge, first (RFC 6749 §5.2).
 */
@Injectable()
export class OAuthResponseInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const response = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    response.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof OAuthError && error.httpStatus === 401) {
          const bearer = `Bearer realm="${AUTH_REALM}"`;
          const basic = /^Basic /i.test(request.headers.authorization ?? '');
          response.header('WWW-Authenticate', basic ? `Basic realm="${AUTH_REALM}", ${bearer}` : bearer);
        }
        return throwError(() => error);
      }),
    );
  }
}
