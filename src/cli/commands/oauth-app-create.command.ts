import { OAuthAppsService } from '../../modules/identity';
import { CliCommand } from '../cli-command';
import { CliUsageError, required } from '../flags';
import { sellerByEmail } from './seller-lookup';

export const oauthAppCreate: CliCommand = {
  name: 'oauth-app:create',
  usage: 'oauth-app:create --email E --name N --redirect-uri U [--redirect-uri U2]',
  summary: 'Register an OAuth app for a seller; prints client_id and client_secret once.',
  flags: {
    email: "the seller's email",
    name: 'the app name shown on the consent screen',
    'redirect-uri': 'an allowed redirect URI (repeat for more)',
  },
  async run(app, flags) {
    const seller = await sellerByEmail(app, required(flags, 'email'));
    const redirectUris = flags['redirect-uri'] ?? [];
    if (!redirectUris.length) throw new CliUsageError('Missing --redirect-uri');
    const { app: registered, clientSecret } = await app
      .get(OAuthAppsService)
      .register({ ...seller, name: required(flags, 'name'), redirectUris });
    return { client_id: registered.clientId, client_secret: clientSecret };
  },
};
