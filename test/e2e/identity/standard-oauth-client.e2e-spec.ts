import { execFile } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../utils/browser';
import { createTestApp, TestApp } from '../../utils/test-app';
import { registerApp, signUp, webAgent } from './support/web';

jest.setTimeout(120_000);

/** The partner app's callback page. */
async function startReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>Connected</h1>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback` };
}

function runStandardClient(job: Record<string, unknown>): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(__dirname, 'support', 'standard-client.mjs'), JSON.stringify(job)],
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout))),
    );
  });
}

describe('a standard OAuth client (oauth4webapi, as documented) against the service, consent in headless Chromium', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    receiver?.server.close();
    await t?.close();
  });

  it('discovers the endpoints, authorizes with PKCE and no state, exchanges, calls the API, refreshes and revokes', async () => {
    const agent = webAgent(t);
    const seller = await signUp(agent);
    const app = await registerApp(agent, [receiver.url], 'Standard client');

    const result = await runStandardClient({
      issuer: t.baseUrl,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      redirectUri: receiver.url,
      scope: 'user.read orders.read',
      email: seller.email,
      password: seller.password,
      chromiumArgs: CHROMIUM_ARGS,
    });

    expect(result.discovery).toMatchObject({
      issuer: t.baseUrl,
      authorization_endpoint: `${t.baseUrl}/web/oauth/authorize`,
      token_endpoint: `${t.baseUrl}/v1/oauth/token`,
      revocation_endpoint: `${t.baseUrl}/v1/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    // Exactly the parameters of the library's example: no state, nothing of this service's own.
    expect([...new URL(result.authorizationUrl).searchParams.keys()].sort()).toEqual([
      'client_id',
      'code_challenge',
      'code_challenge_method',
      'redirect_uri',
      'response_type',
      'scope',
    ]);
    expect(new URL(result.callback).searchParams.has('state')).toBe(false);
    expect(result.tokens).toMatchObject({ token_type: 'bearer', expires_in: 2592000, scope: 'user.read orders.read' });
    expect(result.user).toMatchObject({ status: 200, body: { status: 'success', user: { email: seller.email } } });
    expect(result.refreshed.access_token).toMatch(/^at_/);
    expect(result.refreshed.refresh_token).not.toBe(result.tokens.refresh_token);
    expect(result.revoked).toBe(true);
    expect(result.afterRevocation).toMatchObject({
      error: 'WWWAuthenticateChallengeError',
      status: 401,
      challenges: [{ scheme: 'bearer', parameters: { realm: 'commerce-api', error: 'invalid_token' } }],
    });

    // The refresh token went with the grant (RFC 7009 §2.1).
    await t.http
      .post('/v1/oauth/token')
      .type('form')
      .auth(app.clientId, app.clientSecret)
      .send({ grant_type: 'refresh_token', refresh_token: result.refreshed.refresh_token })
      .expect(400);
  });
});
