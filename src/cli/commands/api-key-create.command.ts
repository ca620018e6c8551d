import { ApiKeysService } from '../../modules/identity/api-keys/api-keys.service';
import { CliCommand } from '../cli-command';
import { required } from '../flags';
import { sellerByEmail } from './seller-lookup';

export const apiKeyCreate: CliCommand = {
  name: 'api-key:create',
  usage: 'api-key:create --email E --name N --scopes a.read,b.write',
  async run(app, flags) {
    const seller = await sellerByEmail(app, required(flags, 'email'));
    const scopes = required(flags, 'scopes')
      .split(/[\s,]+/)
      .filter(Boolean);
    const { apiKey, token } = await app.get(ApiKeysService).create({ ...seller, name: required(flags, 'name'), scopes });
    return { id: apiKey.id, token, scopes: apiKey.scopes };
  },
};
