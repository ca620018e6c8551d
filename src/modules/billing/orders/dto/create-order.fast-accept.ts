import { isInt, isNumber, isURL, matches, min } from 'class-validator';
import { isAbsent, isJsonObject, isStringWithin, registerFastAccept } from '../../../../common/http/fast-accept';
import { isEmailAddress } from '../../../../common/http/email-address';
import {
  AMOUNT_OPTIONS,
  CreateOrderDto,
  CustomerPayloadDto,
  NOT_BLANK,
  isTwoDecimalAmount,
  MOBILE_NUMBER,
  numberToString,
  TrackingDto,
  URL_OPTIONS,
} from './create-order.dto';

/*
 * Fast accept path of POST /v1/orders, the hottest write: class-transformer + class-validator cost
 * ~14 % of its CPU. For a body that passes every decorator of create-order.dto.ts, this builds the
 * instance the global pipe would (whitelisted, `from_order` transformed, absent optional fields left undefined
 * by the class and null kept), with the same class-validator functions and options. Anything else
 * returns undefined and goes through class-validator, which stays the source of truth for what is
 * invalid and how it is worded. A change to a decorator needs the same change here; the
 * equivalence test (test/unit/create-order-fast-accept.spec.ts) mutates every field through both.
 */

function acceptCustomer(value: unknown): CustomerPayloadDto | undefined {
  if (!isJsonObject(value)) return undefined;
  const { name, email, mobile_number, payment_number } = value;
  if (!(isStringWithin(name, 255) && NOT_BLANK.test(name))) return undefined;
  if (!(isStringWithin(email, 255) && isEmailAddress(email))) return undefined;
  if (!(typeof mobile_number === 'string' && matches(mobile_number, MOBILE_NUMBER))) return undefined;
  if (!(isAbsent(payment_number) || isStringWithin(payment_number, 32))) return undefined;
  const customer = new CustomerPayloadDto();
  customer.name = name;
  customer.email = email;
  customer.mobile_number = mobile_number;
  customer.payment_number = payment_number;
  return customer;
}

const UTM_FIELDS = ['utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term'] as const;

function acceptTracking(value: unknown): TrackingDto | undefined {
  if (!isJsonObject(value)) return undefined;
  const tracking = new TrackingDto();
  for (const field of UTM_FIELDS) {
    const utm = value[field];
    if (!(isAbsent(utm) || isStringWithin(utm, 255))) return undefined;
    tracking[field] = utm;
  }
  return tracking;
}

function isOptionalUrl(value: unknown): value is string | null | undefined {
  return isAbsent(value) || (isStringWithin(value, 2048) && isURL(value, URL_OPTIONS));
}

export function acceptCreateOrder(body: unknown): CreateOrderDto | undefined {
  if (!isJsonObject(body)) return undefined;
  const { amount, product_pid, plan_id, affiliate_id, return_url, cancel_url, coupon_code } = body;
  const from_order = numberToString(body.from_order);
  if (!(isNumber(amount, AMOUNT_OPTIONS) && min(amount, 10) && isTwoDecimalAmount(amount))) return undefined;
  if (!(isStringWithin(product_pid, 64) && product_pid !== '')) return undefined;
  if (!(isAbsent(plan_id) || isStringWithin(plan_id, 64))) return undefined;
  if (!(isAbsent(from_order) || isStringWithin(from_order, 64))) return undefined;
  if (!(isAbsent(affiliate_id) || (typeof affiliate_id === 'number' && isInt(affiliate_id) && min(affiliate_id, 1))))
    return undefined;
  if (!(isOptionalUrl(return_url) && isOptionalUrl(cancel_url))) return undefined;
  if (!(isAbsent(coupon_code) || isStringWithin(coupon_code, 64))) return undefined;
  const customer = acceptCustomer(body.customer);
  if (!customer) return undefined;
  let tracking: TrackingDto | null | undefined = body.tracking as null | undefined;
  if (!isAbsent(body.tracking)) {
    tracking = acceptTracking(body.tracking);
    if (!tracking) return undefined;
  }

  const dto = new CreateOrderDto();
  dto.amount = amount;
  dto.product_pid = product_pid;
  dto.customer = customer;
  dto.plan_id = plan_id;
  dto.from_order = from_order;
  dto.affiliate_id = affiliate_id;
  dto.return_url = return_url;
  dto.cancel_url = cancel_url;
  dto.coupon_code = coupon_code;
  dto.tracking = tracking;
  return dto;
}

registerFastAccept(CreateOrderDto, acceptCreateOrder);
