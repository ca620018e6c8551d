import type { INestApplicationContext } from '@nestjs/common';
import { SellersService } from '../../modules/identity';
import { CliUsageError } from '../flags';

/** The seller of `--email` and their store, or a one-line failure. */
export async function sellerByEmail(
  app: INestApplicationContext,
  email: string,
): Promise<{ sellerId: number; storeId: number }> {
  const sellers = app.get(SellersService);
  const seller = await sellers.findByEmail(email);
  const store = seller ? await sellers.findStoreOfSeller(seller.id) : null;
  if (!seller || !store) throw new CliUsageError(`No seller with email ${email}`);
  return { sellerId: seller.id, storeId: store.id };
}
