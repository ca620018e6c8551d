import { Cents, centsToDecimal, percentOf } from '../../common/money';

/** An affiliate's commission on a sale: amount × percent / 100, rounded half up to the cent. */
export function commissionFor(amount: Cents, commissionPercent: Cents): Cents {
  return percentOf(amount, centsToDecimal(commissionPercent));
}
