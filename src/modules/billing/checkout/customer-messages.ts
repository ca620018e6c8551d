/**
 * The checkout page speaks to the customer, not to a developer: each field error of the pay form
 * in words a buyer understands (the JSON answer keeps the API's messages, README, *Taking payments*).
 */
const FIELD_MESSAGES: Record<string, (methods: string[]) => string> = {
  payment_method: (methods) =>
    methods.length
      ? `Choose how you want to pay: ${orList(methods)}.`
      : 'Payments are not available for this checkout right now. Please try again later.',
  payment_number: () => 'Enter the mobile number you pay with, digits only (for example 841234567).',
  bumps: () => 'One of the add-ons is no longer available. Reload the page and try again.',
};

/** `A`, `A or B`, `A, B or C`. */
function orList(items: string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}` : items[0];
}

/** `methods`: the names of the payment methods the checkout offers, as it shows them. */
export function customerFieldErrors(errors: Record<string, string[]>, methods: string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.keys(errors).map((field) => [
      field,
      [FIELD_MESSAGES[field]?.(methods) ?? 'Check this field and try again.'],
    ]),
  );
}

const METHOD_NAMES: Record<string, string> = { mpesa: 'M-Pesa', emola: 'e-Mola' };

/**
 * Why a checkout ended cancelled, in words: a payment attempt that was declined (the order keeps
 * the number it was tried with), or the customer's own cancel.
 */
export function cancellationReason(
  order: {
    status: string;
    paymentMethod: string | null;
    paymentNumber: string | null;
  },
  declined: boolean,
): string | null {
  if (order.status !== 'cancelled') return null;
  if (!declined) return 'You cancelled this checkout. No payment was made.';
  const method = METHOD_NAMES[order.paymentMethod ?? ''] ?? 'Your mobile money provider';
  const from = order.paymentNumber ? ` from ${order.paymentNumber}` : '';
  return `Payment declined: ${method} did not accept the payment${from} (for example, not enough balance or the request was refused on the phone). No money was taken.`;
}
