import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * A query value that is only compared in code with one the server holds, never stored or sent to
 * the database (the portal's `transaction_id`): taken as sent, past the pipe's text inspection, so
 * that one which cannot exist (U+0000, an unpaired surrogate) is simply wrong, the 404 of any wrong
 * value, not a 422 about input (the errors of the OpenAPI description: a value that cannot exist is
 * its resource's 404).
 */
export const ComparedQuery = createParamDecorator(
  (name: string, context: ExecutionContext): unknown =>
    (context.switchToHttp().getRequest<FastifyRequest>().query as Record<string, unknown> | undefined)?.[name],
);
