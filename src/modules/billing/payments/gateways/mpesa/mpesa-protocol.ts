import { constants, publicEncrypt } from 'node:crypto';

/**
 * The wire protocol of Vodacom Mozambique's M-Pesa OpenAPI (developer.mpesa.vm.co.mz), as its
 * portal documents it: JSON bodies of `input_*` fields, answers of `output_*` fields, and an
 * `output_ResponseCode` of the form `INS-<n>`.
 */

/**
 * The bearer token: the API key encrypted with the portal's RSA public key, PKCS#1 v1.5 padding,
 * base64. A new encryption each call (the padding is random); the gateway accepts any of them.
 */
export function mpesaBearerToken(apiKey: string, publicKeyPem: string): string {
  return publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(apiKey, 'utf8'),
  ).toString('base64');
}

/**
 * `258` + 9 digits from the forms customers type: `84…` (9 digits), `+258…`, `258…`, with spaces or
 * dashes. Null when it is not a Mozambican mobile number (82–87).
 */
export function mpesaMsisdn(paymentNumber: string): string | null {
  const digits = paymentNumber.replace(/[\s-]/g, '').replace(/^\+/, '');
  const local = digits.length === 12 && digits.startsWith('258') ? digits.slice(3) : digits;
  return /^8[2-7]\d{7}$/.test(local) ? `258${local}` : null;
}

/** `input_Amount`: the amount as a decimal string, without a `.00` for whole amounts ("150", "150.50"). */
export function mpesaAmount(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0')}`;
}

/** The C2B answer (and the shape of every other answer). */
export interface MpesaResponse {
  output_ResponseCode?: string;
  output_ResponseDesc?: string;
  output_TransactionID?: string;
  output_ConversationID?: string;
  output_ThirdPartyReference?: string;
  output_ResponseTransactionStatus?: string;
  output_error?: string;
}

/** INS-0: processed. INS-9: the gateway timed out itself, the payment may still happen. */
export const MPESA_SUCCESS = 'INS-0';
export const MPESA_TIMEOUT = 'INS-9';
