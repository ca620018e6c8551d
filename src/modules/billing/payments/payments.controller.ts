import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
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
import { ApiNotFound, ApiNullable } from '../../../common/http/api-docs';
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
  @ApiHeader({ name: 'X-Sandbox-Signature', required: false, example: 'sha256=5d41402abc4b2a76b9719d911017c592…' })
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
