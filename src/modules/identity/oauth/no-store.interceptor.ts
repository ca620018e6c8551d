import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, catchError, throwError } from 'rxjs';
import { OAuthError } from './oauth-error';

/**
 * Token responses must never be cached (RFC 6749 §5.1), errors included; a client that tried
 * HTTP Basic and failed is told so with `WWW-Authenticate` (§5.2).
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
        if (error instanceof OAuthError && error.httpStatus === 401 && /^Basic /i.test(request.headers.authorization ?? '')) {
          response.header('WWW-Authenticate', 'Basic realm="oauth"');
        }
        return throwError(() => error);
      }),
    );
  }
}
