import { ApiKeysService } from '../../modules/identity';
import { CliCommand } from '../cli-command';
import { optional, required } from '../flags';
import { sellerByEmail } from './seller-lookup';

export const apiKeyCreate: CliCommand = {
  name: 'api-key:create',
  usage: 'api-key:create --email E --name N --scopes a.read,b.write [--test]',
  summary: 'Create an API key for a seller; prints its token once.',
  flags: {
    email: "the seller's email",
    name: 'a name for the key',
    scopes: 'comma-separated scopes (see GET /v1/scopes)',
    test: "a test key (sk_test_…) of the store's test mode",
  },
  switches: ['test'],
  async run(app, flags) {
    const seller = await sellerByEmail(app, required(flags, 'email'));
    const scopes = required(flags, 'scopes')
      .split(/[\s,]+/)
      .filter(Boolean);
    const { apiKey, token } = await app
      .get(ApiKeysService)
      .create({ ...seller, name: required(flags, 'name'), scopes, test: optional(flags, 'test') === 'true' });
    return { id: apiKey.id, token, scopes: apiKey.scopes };
  },
};
