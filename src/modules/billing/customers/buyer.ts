/** What an order says about its buyer (besides the email, which is the customer's key). */
export interface Buyer {
  name: string;
  mobileNumber: string;
  paymentNumber: string | null;
}

/**
 * The buyer details of an order: as given with it (billing README, `checkout/`: "An order keeps its buyer"), or,
 * for an order made before orders kept them, the customer record's.
 */
export function buyerOf(
  order: { customerName: string | null; customerMobileNumber: string | null; customerPaymentNumber: string | null },
  customer: { name: string; mobileNumber: string; paymentNumber: string | null },
): Buyer {
  if (order.customerName == null) return customer;
  return {
    name: order.customerName,
    mobileNumber: order.customerMobileNumber ?? customer.mobileNumber,
    paymentNumber: order.customerPaymentNumber,
  };
}
