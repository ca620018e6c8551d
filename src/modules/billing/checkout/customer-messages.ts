import { isRenewalOrder } from '../orders/order.entity';

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

/** What the payment decline of `order` (its method and number) was, in words. */
export function declineMessage(order: { paymentMethod: string | null; paymentNumber: string | null }): string {
  const method = METHOD_NAMES[order.paymentMethod ?? ''] ?? 'Your mobile money provider';
  const from = order.paymentNumber ? ` from ${order.paymentNumber}` : '';
  return `Payment declined: ${method} did not accept the payment${from} (for example, not enough balance or the request was refused on the phone). No money was taken.`;
}

/**
 * Why a checkout ended cancelled, in words: a payment attempt that was declined (the order keeps
 * the number it was tried with), a renewal closed with its subscription (expired or cancelled),
 * or the customer's own cancel.
 */
export function cancellationReason(
  order: {
    status: string;
    paymentMethod: string | null;
    paymentNumber: string | null;
    subscriptionId: number | null;
    subscriptionPeriod: number | null;
  },
  declined: boolean,
): string | null {
  if (order.status !== 'cancelled') return null;
  if (declined) return declineMessage(order);
  if (isRenewalOrder(order)) return 'This renewal was closed because the subscription ended. No payment was made.';
  return 'You cancelled this checkout. No payment was made.';
}

/** Why "Try again" could not reopen `order` (its coupon no longer applies, say), in words, with the way on. */
export function retryRefusal(order: { couponCode: string | null }, errors: Record<string, string[]>): string {
  const coupon = errors.coupon_code?.[0];
  if (coupon && order.couponCode)
    return `The coupon of this order (${order.couponCode}) can no longer be used: ${coupon} Ask the seller for a new checkout link.`;
  const first = Object.values(errors)[0]?.[0] ?? 'Validation failed.';
  return `This checkout cannot be reopened: ${first} Ask the seller for a new checkout link.`;
}

/** The buy link's fields (README, *Buy links*), each error in the buyer's words. */
const BUY_FIELDS: Record<string, { field: string; words: (message: string) => string }> = {
  'customer.name': {
    field: 'name',
    words: (m) => (m.includes('at most') ? 'Your name can be at most 255 characters.' : 'Enter your name.'),
  },
  'customer.email': {
    field: 'email',
    words: (m) =>
      m.includes('at most')
        ? 'Your email can be at most 255 characters.'
        : 'Enter a valid email address (for example ana@example.com).',
  },
  'customer.mobile_number': {
    field: 'mobile_number',
    words: () => 'Enter your mobile number in international format, starting with + (for example +258841234567).',
  },
  plan_id: { field: 'plan_id', words: () => 'Choose a plan.' },
  // A coupon refused by its rules says why in its own words (`Coupon has expired.`); anything else is the code's form.
  coupon_code: {
    field: 'coupon_code',
    words: (m) => (m.startsWith('Coupon') ? m : 'Enter the coupon code as you received it.'),
  },
};

/**
 * The buy form's errors by its own fields. An error of anything the buyer did not type (the
 * product's price, say) is the form's (`form`): the product cannot be bought through its link now.
 */
export function buyFieldErrors(errors: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const known = BUY_FIELDS[key];
    if (known) out[known.field] = [known.words(messages[0] ?? '')];
    else out.form = ['This product cannot be bought here right now. Please contact the seller.'];
  }
  return out;
}
