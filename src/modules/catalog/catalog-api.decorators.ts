import { applyDecorators } from '@nestjs/common';
import { ApiNotFoundResponse, ApiParam, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto, ValidationErrorResponseDto } from '../../common/http/error-response.dto';

/** Path `{id}`: numeric id or public identifier, documented once for every catalog route. */
export const ApiCatalogId = (what: 'product' | 'plan') =>
  applyDecorators(
    ApiParam({
      name: 'id',
      description: what === 'product' ? 'Product `id` or `product_pid`.' : 'Plan `id` or `plan_id`.',
      example: what === 'product' ? 'prod_4fQ9xZ2LmN8pR1sT' : 'plan_7Hk2mQ9xW3nB5vLc',
    }),
    ApiNotFoundResponse({
      description: `Unknown ${what}, or one of another store.`,
      type: ErrorResponseDto,
      example: { status: 'error', message: 'Resource not found.' },
    }),
  );

export const ApiValidationFailed = () =>
  ApiUnprocessableEntityResponse({ description: 'Validation failed.', type: ValidationErrorResponseDto });
