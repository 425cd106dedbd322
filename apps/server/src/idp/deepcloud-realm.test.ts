import { createRemoteJWKSet, jwtVerify } from 'jose';
import { expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { CLOUD_REALM_PATH, demoOrganizations } from './deepcloud-realm.ts';
import {
  CookieJar,
  describeIdp,
  follow,
  formAction,
  pkce,
  request,
  signIn,
  type TestIdp,
} from '../test/idp.ts';

const CLIENT_ID = 'portal-cloud-connector';
const SCOPE = 'openid profile email offline_access organizations';
const redirectUri = (idp: TestIdp) => `${idp.base}/deepcloud/connect`;
const endpoint = (idp: TestIdp, path: string) => `${idp.base}${CLOUD_REALM_PATH}${path}`;

function cloudAuthorizeUrl(idp: TestIdp, challenge: string, params: Record<string, string> = {}) {
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(idp),
    response_type: 'code',
    scope: SCOPE,
    state: 'cloud-state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  return endpoint(idp, `/protocol/openid-connect/auth?${query.toString()}`);
}

async function tokenRequest(idp: TestIdp, form: Record<string, string>) {
  const response = await fetch(endpoint(idp, '/protocol/openid-connect/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A person signs in at the cloud's page: the code the cloud sends back to the portal's connect page. */
async function cloudCode(idp: TestIdp, jar: CookieJar, email: string, challenge: string) {
  const start = await request(cloudAuthorizeUrl(idp, challenge), jar);
  const page = await follow(idp, start, jar, CLOUD_REALM_PATH);
  const html = await page.text();
  expect(html).toContain('DeepCloud');
  // Sign-in only: no registration or password reset at the cloud.
  expect(html).not.toContain('kc-registration');
  const action = formAction(html, 'kc-form-login');
  expect(action.startsWith(`${CLOUD_REALM_PATH}/login-actions/`)).toBe(true);
  const posted = await request(new URL(action, idp.base).href, jar, {
    form: { username: email, password: DEMO_PASSWORD },
  });
  const done = await follow(idp, posted, jar, CLOUD_REALM_PATH);
  const location = new URL(done.headers.get('location') ?? '', idp.base);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri(idp));
  expect(location.searchParams.get('state')).toBe('cloud-state-1');
  return location.searchParams.get('code')!;
}

async function connect(idp: TestIdp, email: string) {
  const { verifier, challenge } = pkce();
  const code = await cloudCode(idp, new CookieJar(), email, challenge);
  return tokenRequest(idp, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri(idp),
  });
}

const organizations = (idp: TestIdp, token: string) =>
  fetch(endpoint(idp, '/api/organizations'), {
    headers: { authorization: `Bearer ${token}`, connection: 'close' },
  });

describeIdp('the embedded cloud realm', (ctx) => {
  it('publishes its own discovery document, keys and endpoints under /realms/cloud', async () => {
    const response = await fetch(endpoint(ctx.idp, '/.well-known/openid-configuration'));
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${ctx.idp.base}${CLOUD_REALM_PATH}`);
    expect(discovery.token_endpoint).toBe(endpoint(ctx.idp, '/protocol/openid-connect/token'));
    expect(discovery.revocation_endpoint).toBe(endpoint(ctx.idp, '/protocol/openid-connect/revoke'));
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['offline_access', 'organizations']));
    // Keys of its own: none of the portal realm's signing keys.
    const cloudKeys = (await (await fetch(String(discovery.jwks_uri))).json()) as { keys: { kid: string }[] };
    const portalKeys = (await (
      await fetch(`${ctx.idp.base}/realms/portal/protocol/openid-connect/certs`)
    ).json()) as { keys: { kid: string }[] };
    expect(cloudKeys.keys.length).toBeGreaterThan(0);
    for (const key of cloudKeys.keys) expect(portalKeys.keys.map((k) => k.kid)).not.toContain(key.kid);
  });

  it('signs a demo person in, exchanges the code with its PKCE verifier and lists their organisations', async () => {
    const tokens = await connect(ctx.idp, DEMO_USERS.owner.email);
    expect(tokens.status).toBe(200);
    expect(tokens.body.refresh_token).toBeTruthy();
    // offline_access needs prompt=consent at oidc-provider; the connector gets its refresh token regardless.
    expect(tokens.body.scope?.split(' ')).toEqual(expect.arrayContaining(['openid', 'organizations']));
    const jwks = createRemoteJWKSet(new URL(endpoint(ctx.idp, '/protocol/openid-connect/certs')));
    const { payload } = await jwtVerify(tokens.body.id_token!, jwks, {
      issuer: `${ctx.idp.base}${CLOUD_REALM_PATH}`,
      audience: CLIENT_ID,
    });
    expect(payload.email).toBe(DEMO_USERS.owner.email);

    const listed = await organizations(ctx.idp, tokens.body.access_token!);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { organizations: { uid: string }[] };
    expect(body.organizations).toEqual(demoOrganizations(DEMO_USERS.owner.email));
    expect(body.organizations[0]!.uid).toMatch(/^CHE-\d{3}\.\d{3}\.\d{3}$/);

    // The refresh token gives a new access token; once revoked, it gives nothing.
    const refreshed = await tokenRequest(ctx.idp, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token!,
    });
    expect(refreshed.status).toBe(200);
    const current = refreshed.body.refresh_token ?? tokens.body.refresh_token!;
    const revoked = await fetch(endpoint(ctx.idp, '/protocol/openid-connect/revoke'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close' },
      body: new URLSearchParams({ client_id: CLIENT_ID, token: current }).toString(),
    });
    expect(revoked.status).toBe(200);
    const after = await tokenRequest(ctx.idp, { grant_type: 'refresh_token', refresh_token: current });
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
  });

  it('refuses a code with the wrong verifier', async () => {
    const { challenge } = pkce();
    const code = await cloudCode(ctx.idp, new CookieJar(), DEMO_USERS.admin.email, challenge);
    const refused = await tokenRequest(ctx.idp, {
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce().verifier,
      redirect_uri: redirectUri(ctx.idp),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });

  it('refuses an authorization without PKCE', async () => {
    const query = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: redirectUri(ctx.idp),
      response_type: 'code',
      scope: SCOPE,
      state: 's',
    });
    const response = await request(
      endpoint(ctx.idp, `/protocol/openid-connect/auth?${query.toString()}`),
      new CookieJar(),
    );
    const location = new URL(response.headers.get('location') ?? '', ctx.idp.base);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('answers the organisations only to its own access tokens, not to the portal realm’s', async () => {
    const portal = await signIn(ctx.idp, new CookieJar(), DEMO_USERS.owner.email, DEMO_PASSWORD);
    expect(portal.tokens.status).toBe(200);
    const refused = await organizations(ctx.idp, portal.tokens.body.access_token!);
    expect(refused.status).toBe(401);
    expect((await organizations(ctx.idp, 'not-a-token')).status).toBe(401);
    const none = await fetch(endpoint(ctx.idp, '/api/organizations'));
    expect(none.status).toBe(401);
  });

  it('keeps the realms apart: a portal sign-in is no cloud session', async () => {
    const jar = new CookieJar();
    await signIn(ctx.idp, jar, DEMO_USERS.owner.email, DEMO_PASSWORD);
    const start = await request(cloudAuthorizeUrl(ctx.idp, pkce().challenge), jar);
    const page = await follow(ctx.idp, start, jar, CLOUD_REALM_PATH);
    expect(await page.text()).toContain('kc-form-login');
  });
});
