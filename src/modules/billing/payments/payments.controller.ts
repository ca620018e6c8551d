import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiBadRequestResponse,
} from '@nestjs/swagger';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiNotFound, ApiNullable, ApiValidationFailed } from '../../../common/http/api-docs';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { KeepRawBody, RequestWithRawBody } from '../../../common/http/raw-body';
import { Public } from '../../identity';
import { PaymentsService } from './payments.service';

class PaymentCallbackResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiNullable({ type: 'string', example: 'ORD-8K2M4Q7XPA3Z', description: 'null for an event about no order.' })
  order_number: string | null;
  @ApiNullable({ type: 'string', example: 'approved', enum: ['pending', 'approved', 'cancelled', 'refunded'] })
  order_status: string | null;
}

@ApiTags('Payments')
@Controller('v1/payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Post(':provider/callback')
  @Public()
  @KeepRawBody()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Payment gateway callback (no token: verified by the gateway signature over the raw body)',
    description:
      'Sandbox: JSON `{order_number, transaction_id, status: "approved"|"declined"}` with header ' +
      '`X-Sandbox-Signature: sha256=<hex HMAC-SHA256 of the raw body keyed with PAYMENT_SANDBOX_SECRET>` ' +
      '(401 `Invalid signature.` otherwise). Stripe (`stripe`): the Checkout Session events, verified with ' +
      '`Stripe-Signature` and `STRIPE_WEBHOOK_SECRET` (400 `Invalid signature.` otherwise). A callback about an ' +
      'attempt whose outcome is already recorded (a repeat, or the gateway answered first) changes nothing.',
  })
  @ApiParam({ name: 'provider', example: 'sandbox', description: 'A configured gateway: `sandbox`, `stripe`, …' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: '`Invalid signature.` (Stripe)' })
  // A signed sandbox body whose fields are wrong.
  @ApiValidationFailed({ status: ['status must be one of: approved, declined.'] })
  @ApiHeader({
    name: 'X-Sandbox-Signature',
    required: false,
    description:
      'Sandbox only: `sha256=` and the hex HMAC-SHA256 of the raw body (the example is of another body: 401).',
    example: 'sha256=0f6c1e3b8d5a4c2e9f7b6a5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b',
  })
  @ApiBody({
    required: false,
    description: "The gateway's own notification; for the sandbox, this JSON object.",
    schema: {
      type: 'object',
      properties: {
        order_number: { type: 'string' },
        transaction_id: { type: 'string' },
        status: { type: 'string', enum: ['approved', 'declined'] },
      },
    },
    examples: {
      sandbox: {
        summary: 'A sandbox notification',
        value: { order_number: 'ORD-8K2M4Q7XPA3Z', transaction_id: 'sbx_4f9Kq2LmZ8rT1vW6yX3b', status: 'approved' },
      },
    },
  })
  @ApiOkResponse({ type: PaymentCallbackResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: '`Invalid signature.`' })
  @ApiNotFound('Unknown provider or order.')
  async callback(
    @Param('provider') provider: string,
    @Req() req: RequestWithRawBody,
    @Headers() headers: IncomingHttpHeaders,
  ): Promise<PaymentCallbackResponseDto> {
    const result = await this.payments.handleCallback(provider, req.rawBody, headers);
    return { status: 'success', order_number: result.orderNumber, order_status: result.orderStatus };
  }
}
