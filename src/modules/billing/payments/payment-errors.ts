import { AppError } from '../../../common/errors/app-error';

/** A refund the payment provider refused, or could not take (unreachable). Nothing changed. */
export class PaymentProviderError extends AppError {
  readonly httpStatus = 502;
  constructor(providerCode: string, providerMessage: string) {
    super('Payment provider error.', { provider_code: providerCode, provider_message: providerMessage });
  }
}
