// A partner app written the way oauth4webapi documents the authorization code flow
// (examples/oauth.ts and examples/refresh_token.ts of the library): discovery from the RFC 8414
// metadata, PKCE, no state when the server supports S256, no extra parameters, then a protected
// resource request, a refresh and a revocation. The seller's side (login, consent) runs in
// headless Chromium. ESM-only like oauth4webapi, so the test runs it as a child process:
// argv[2] is a JSON job, stdout the JSON result.
import * as oauth from 'oauth4webapi';
import { chromium } from 'playwright-core';

const job = JSON.parse(process.argv[2]);
const issuer = new URL(job.issuer);
const redirect_uri = job.redirectUri;
// The test server speaks plain http on 127.0.0.1; the library refuses that unless told.
const options = { [oauth.allowInsecureRequests]: true };

const steps = {};
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: job.chromiumArgs });
try {
  const as = await oauth
    .discoveryRequest(issuer, { algorithm: 'oauth2', ...options })
    .then((response) => oauth.processDiscoveryResponse(issuer, response));
  steps.discovery = as;

  const client = { client_id: job.clientId, client_secret: job.clientSecret, token_endpoint_auth_method: 'client_secret_basic' };
  const clientAuth = oauth.ClientSecretBasic(job.clientSecret);

  const code_challenge_method = 'S256';
  const code_verifier = oauth.generateRandomCodeVerifier();
  const code_challenge = await oauth.calculatePKCECodeChallenge(code_verifier);
  let state;

  const authorizationUrl = new URL(as.authorization_endpoint);
  authorizationUrl.searchParams.set('client_id', client.client_id);
  authorizationUrl.searchParams.set('redirect_uri', redirect_uri);
  authorizationUrl.searchParams.set('response_type', 'code');
  authorizationUrl.searchParams.set('scope', job.scope);
  authorizationUrl.searchParams.set('code_challenge', code_challenge);
  authorizationUrl.searchParams.set('code_challenge_method', code_challenge_method);
  if (as.code_challenge_methods_supported?.includes('S256') !== true) {
    state = oauth.generateRandomState();
    authorizationUrl.searchParams.set('state', state);
  }
  steps.authorizationUrl = authorizationUrl.href;

  // The seller: logs in when asked, approves, and lands back on the partner's redirect_uri.
  const page = await browser.newPage();
  await page.goto(authorizationUrl.href);
  await page.fill('#email', job.email);
  await page.fill('#password', job.password);
  await page.click('form[action$="/login"] button[type=submit]');
  await page.waitForURL((url) => url.pathname.endsWith('/oauth/authorize'));
  await page.click('button[name="decision"][value="approve"]');
  await page.waitForURL((url) => url.href.startsWith(redirect_uri));
  const currentUrl = new URL(page.url());
  steps.callback = currentUrl.href;

  const params = oauth.validateAuthResponse(as, client, currentUrl, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirect_uri, code_verifier, options),
  );
  steps.tokens = tokens;

  const user = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${job.issuer}/v1/user`), undefined, undefined, options);
  steps.user = { status: user.status, body: await user.json() };

  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token, options),
  );
  steps.refreshed = refreshed;

  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token, options));
  steps.revoked = true;

  // The revoked grant's access token: the library reads the RFC 6750 challenge of the 401.
  try {
    await oauth.protectedResourceRequest(refreshed.access_token, 'GET', new URL(`${job.issuer}/v1/user`), undefined, undefined, options);
    steps.afterRevocation = { error: null };
  } catch (error) {
    steps.afterRevocation = { error: error.name, status: error.response?.status, challenges: error.cause };
  }
  process.stdout.write(JSON.stringify(steps));
} catch (error) {
  process.stderr.write(`${error?.name}: ${error?.message} ${JSON.stringify(error?.cause ?? null)}\nsteps so far: ${JSON.stringify(steps)}\n`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
