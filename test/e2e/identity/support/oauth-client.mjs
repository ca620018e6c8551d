// Exchanges an authorization code with oauth4webapi, a standard OAuth 2.0 client library. It is
// ESM-only, which Jest's CommonJS sandbox cannot load, so the browser test runs it as a child
// process: argv[2] is a JSON job, stdout the JSON result.
import * as oauth from 'oauth4webapi';

const job = JSON.parse(process.argv[2]);
const as = { issuer: job.issuer, token_endpoint: job.tokenEndpoint };
const client = { client_id: job.clientId };
const options = { [oauth.allowInsecureRequests]: true };

try {
  const params = oauth.validateAuthResponse(as, client, new URL(job.callbackUrl), job.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.ClientSecretBasic(job.clientSecret),
    params,
    job.redirectUri,
    job.codeVerifier,
    // No state here: oauth4webapi checked it at the callback, and the code carries a PKCE challenge (the security schemes of the OpenAPI description).
    options,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic(job.clientSecret), tokens.refresh_token, options),
  );
  process.stdout.write(JSON.stringify({ tokens, refreshed }));
} catch (error) {
  process.stderr.write(`${error?.name}: ${error?.message} ${JSON.stringify(error?.cause ?? null)}\n`);
  process.exit(1);
}
