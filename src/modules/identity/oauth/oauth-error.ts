import { AppError } from '../../../common/errors/app-error';

/**
 * A token-endpoint error (the security schemes of the OpenAPI description): the contract's message plus the RFC 6749 `error` code,
 * rendered by the one exception filter as `{status, message, error, error_description}`.
 */
export class OAuthError extends AppError {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly error: 'invalid_client' | 'invalid_grant' | 'invalid_request' | 'unsupported_grant_type',
  ) {
    super(message, { error, error_description: message });
  }

  static invalidClient(): OAuthError {
    return new OAuthError(401, 'Invalid credentials', 'invalid_client');
  }

  static invalidGrant(message: string): OAuthError {
    return new OAuthError(400, message, 'invalid_grant');
  }
}
