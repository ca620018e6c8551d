import { isCurrencyCode, SellersService } from '../../modules/identity';
import { CliCommand } from '../cli-command';
import { CliUsageError, optional, required } from '../flags';

export const sellerCreate: CliCommand = {
  name: 'seller:create',
  usage: 'seller:create --email E --password P --name N --store S [--currency MZN]',
  summary: 'Create a seller and their store.',
  flags: {
    email: 'login email',
    password: 'login password, 8+ characters',
    name: "the seller's name",
    store: 'the store name',
    currency: 'ISO 4217 currency of the store (default MZN)',
  },
  async run(app, flags) {
    const email = required(flags, 'email');
    const password = required(flags, 'password');
    if (password.length < 8) throw new CliUsageError('--password needs at least 8 characters');
    const currency = (optional(flags, 'currency') ?? 'MZN').toUpperCase();
    if (!isCurrencyCode(currency))
      throw new CliUsageError('--currency must be an ISO 4217 code, for example MZN, USD or EUR');
    const { seller, store } = await app.get(SellersService).register({
      email,
      password,
      name: required(flags, 'name'),
      storeName: required(flags, 'store'),
      currency,
    });
    return { seller_id: seller.id, store_id: store.id };
  },
};
