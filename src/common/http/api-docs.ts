import { ApiConflictResponse, ApiNotFoundResponse, ApiParam, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto, ValidationErrorResponseDto } from './error-response.dto';

/**
 * The error responses of spec §7 for OpenAPI, written once so every module documents the same bodies.
 * `description` says when the error happens; `message` is the exact text the service raises.
 */
export const ApiNotFound = (description?: string, message = 'Resource not found.') =>
  ApiNotFoundResponse({ description, type: ErrorResponseDto, example: { status: 'error', message } });

export const ApiConflict = (message: string, description?: string) =>
  ApiConflictResponse({ description, type: ErrorResponseDto, example: { status: 'error', message } });

/** 422 with field errors (decisions §6); `exampleErrors` shows typical ones for this endpoint. */
export const ApiValidationFailed = (exampleErrors?: Record<string, string[]>) =>
  ApiUnprocessableEntityResponse({
    description: 'Validation failed.',
    type: ValidationErrorResponseDto,
    ...(exampleErrors && { example: { status: 'error', message: 'Validation failed.', errors: exampleErrors } }),
  });

/** A path parameter that holds a numeric id. */
export const ApiIdParam = (name: string, description?: string, example = 7) =>
  ApiParam({ name, type: 'integer', description, example });

/**
 * Path `{id}` that is a numeric id or a public reference (order number, pid, code…).
 * `example` may name several examples, e.g. `{ id: '7', code: 'SAVE10' }`.
 */
export const ApiRefParam = (description: string, example: string | Record<string, string>) =>
  ApiParam({
    name: 'id',
    description,
    ...(typeof example === 'string'
      ? { example }
      : { examples: Object.fromEntries(Object.entries(example).map(([key, value]) => [key, { value }])) }),
  });
