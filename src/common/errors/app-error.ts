/**
 * Domain errors. Services throw these; {@link ../http/exception.filter} is the one place that turns
 * them into the contract's error body (the OpenAPI description): `{status: "error", message, ...extra}`.
 */
export abstract class AppError extends Error {
  abstract readonly httpStatus: number;

  constructor(
    message: string,
    /** Extra top-level properties of the error body (`errors`, `missing_fields`, …). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  readonly httpStatus = 400;
}

export class UnauthorizedError extends AppError {
  readonly httpStatus = 401;
}

export class ForbiddenError extends AppError {
  readonly httpStatus = 403;
}

export class NotFoundError extends AppError {
  readonly httpStatus = 404;
  constructor(message = 'Resource not found.', extra?: Record<string, unknown>) {
    super(message, extra);
  }
}

export class ConflictError extends AppError {
  readonly httpStatus = 409;
}

/**
 * 409 while another request works on the same thing (`A payment is already in progress.`): a state
 * that passes, so an `Idempotency-Key` does not keep this answer and a retry with the key runs again.
 */
export class InProgressError extends ConflictError {}

export class PayloadTooLargeError extends AppError {
  readonly httpStatus = 413;
  constructor() {
    super('Payload too large.');
  }
}

/** 422 with a message of its own (`Product is missing required data.`, …). */
export class UnprocessableError extends AppError {
  readonly httpStatus = 422;
}

export type FieldErrors = Record<string, string[]>;

/** 422 `Validation failed.` with `errors` mapping dotted field paths to messages (the OpenAPI description). */
export class ValidationError extends UnprocessableError {
  constructor(readonly errors: FieldErrors) {
    super('Validation failed.', { errors });
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

export class TooManyRequestsError extends AppError {
  readonly httpStatus = 429;
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests.');
  }
}
