import { Controller, Delete, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ForbiddenError } from '../../common/errors/app-error';
import { RATE_LIMIT_HEADERS, wwwAuthenticateHeader } from '../../common/http/api-docs';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { AnyToken, CurrentPrincipal, type Principal } from '../identity';
import { TestDataService } from './test-data.service';

export class TestDataDeletedDto {
  @ApiProperty({ example: 'success' }) status: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: {
      affiliates: 0,
      customers: 2,
      discounts: 1,
      files: 1,
      orders: 3,
      plans: 1,
      products: 2,
      subscriptions: 1,
      webhooks: 1,
    },
    description:
      'Rows removed per resource of the test store (orders, customers, products, files, plans, discounts, ' +
      'subscriptions, webhooks, affiliates and their deliveries, payments and messages); 0 where there were none.',
  })
  deleted: Record<string, number>;
}

const TEST_KEY_CHALLENGE =
  'Bearer realm="commerce-api", error="insufficient_scope", error_description="This endpoint needs a test key (sk_test_)."';

@ApiTags('Test mode')
@Controller('v1/test-data')
export class TestDataController {
  constructor(private readonly testData: TestDataService) {}

  @Delete()
  @HttpCode(200)
  @AnyToken()
  @ApiOperation({
    summary: "Delete the store's test data",
    description:
      "With a test key (`sk_test_…`): removes every resource of the store's test mode. The keys stay. " +
      'A live key or an OAuth token is refused.',
  })
  @ApiOkResponse({ type: TestDataDeletedDto })
  @ApiForbiddenResponse({
    description: '`Permission denied for this endpoint.` — the token is not a test key.',
    type: ErrorResponseDto,
    example: { status: 'error', message: 'Permission denied for this endpoint.' },
    headers: { ...wwwAuthenticateHeader(TEST_KEY_CHALLENGE), ...RATE_LIMIT_HEADERS },
  })
  async reset(
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TestDataDeletedDto> {
    try {
      return { status: 'success', deleted: await this.testData.reset(principal) };
    } catch (error) {
      // RFC 6750: the token is valid but lacks what the route needs (here, being a test key).
      if (error instanceof ForbiddenError) void reply.header('WWW-Authenticate', TEST_KEY_CHALLENGE);
      throw error;
    }
  }
}
