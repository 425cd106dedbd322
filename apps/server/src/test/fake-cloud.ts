// A small stand-in for the cloud's authorization server and API, for tests of the cloud connection through HTTP: the
// discovery document, the token endpoint (authorization code with the PKCE check, refresh with rotation,
// invalid_grant), revocation (recorded), the signing keys and a signed ID token, and the organisations endpoint, which
// can be told to hang so that a test sees the server close the call.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface FakeCloudPerson {
  subject: string;
  name: string;
  email: string;
}

export interface FakeCloud {
  url: string;
  clientId: string;
  /** Every token it issued (access, refresh, ID): none may appear in an answer of the portal or in its logs. */
  issued: string[];
  /** What reached the revocation endpoint. */
  revoked: { token: string; hint: string | null }[];
  /** Grants of the token endpoint, in order (`authorization_code`, `refresh_token`), with the answer's status. */
  grants: { grantType: string; status: number }[];
  /** Lifetime of the access tokens it issues, in seconds. */
  accessTtl: number;
  /** The revocation endpoint answers 503 while true. */
  revocationDown: boolean;
  /**
   * The next call of the organisations endpoint never answers: `started` resolves when it arrived, `closed` when the
   * caller closed its connection.
   */
  hangNext(): { started: Promise<void>; closed: Promise<void> };
  /** The person signs in at the cloud and consents: the code the cloud sends back for this PKCE challenge. */
  issueCode(challenge: string, person?: FakeCloudPerson, redirectUri?: string): string;
  /** The cloud forgets every refresh token (revoked there, or expired): the next refresh is invalid_grant. */
  dropRefreshTokens(): void;
  close(): Promise<void>;
}

export const FAKE_CLOUD_PERSON: FakeCloudPerson = {
  subject: 'cloud-user-7',
  name: 'Olivia Owner',
  email: 'olivia@cloud.example',
};

export const FAKE_ORGANIZATIONS = [
  { id: 'o-1', name: 'Alpenblick Treuhand AG', uid: 'CHE-526.018.151', role: 'owner' },
  { id: 'o-2', name: 'Seeland Bäckerei AG', uid: null, role: 'member' },
];

interface Code {
  challenge: string;
  person: FakeCloudPerson;
  redirectUri: string;
  used: boolean;
}

const random = () => crypto.randomBytes(24).toString('base64url');

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => resolve(body));
  });
}

export async function startFakeCloud(options: { redirectUri: string }): Promise<FakeCloud> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'fake-cloud-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, Code>();
  const refreshTokens = new Map<string, FakeCloudPerson>();
  const accessTokens = new Set<string>();
  let hanging: { started: () => void; closed: () => void } | null = null;

  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeCloud = {
    url,
    clientId: 'portal-test',
    issued: [],
    revoked: [],
    grants: [],
    accessTtl: 300,
    revocationDown: false,
    hangNext() {
      let started!: () => void;
      let closed!: () => void;
      const promises = {
        started: new Promise<void>((resolve) => (started = resolve)),
        closed: new Promise<void>((resolve) => (closed = resolve)),
      };
      hanging = { started, closed };
      return promises;
    },
    issueCode(challenge, person = FAKE_CLOUD_PERSON, redirectUri = options.redirectUri) {
      const code = random();
      codes.set(code, { challenge, person, redirectUri, used: false });
      return code;
    },
    dropRefreshTokens: () => refreshTokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(body));
  };

  async function tokensFor(person: FakeCloudPerson, withIdToken: boolean) {
    const accessToken = `at-${random()}`;
    const refreshToken = `rt-${random()}`;
    accessTokens.add(accessToken);
    refreshTokens.set(refreshToken, person);
    const idToken = withIdToken
      ? await new SignJWT({ name: person.name, email: person.email })
          .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
          .setIssuer(url)
          .setSubject(person.subject)
          .setAudience(fake.clientId)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey)
      : undefined;
    fake.issued.push(accessToken, refreshToken, ...(idToken ? [idToken] : []));
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: fake.accessTtl,
      refresh_token: refreshToken,
      scope: 'openid profile email organizations',
      ...(idToken ? { id_token: idToken } : {}),
    };
  }

  async function token(form: URLSearchParams, response: http.ServerResponse) {
    const grantType = form.get('grant_type') ?? '';
    const answer = (status: number, body: unknown) => {
      fake.grants.push({ grantType, status });
      send(response, status, body);
    };
    const invalidGrant = () => answer(400, { error: 'invalid_grant', error_description: 'grant not valid' });
    if (form.get('client_id') !== fake.clientId) return answer(401, { error: 'invalid_client' });
    if (grantType === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
      if (
        !code ||
        code.used ||
        code.challenge !== challenge ||
        code.redirectUri !== form.get('redirect_uri')
      ) {
        return invalidGrant();
      }
      code.used = true;
      return answer(200, await tokensFor(code.person, true));
    }
    if (grantType === 'refresh_token') {
      const old = form.get('refresh_token') ?? '';
      const person = refreshTokens.get(old);
      if (!person) return invalidGrant();
      refreshTokens.delete(old);
      return answer(200, await tokensFor(person, false));
    }
    return answer(400, { error: 'unsupported_grant_type' });
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const path = new URL(request.url ?? '/', url).pathname;
    const form = new URLSearchParams(request.method === 'POST' ? await readBody(request) : '');
    switch (path) {
      case '/.well-known/openid-configuration':
        return send(response, 200, {
          issuer: url,
          authorization_endpoint: `${url}/authorize`,
          token_endpoint: `${url}/token`,
          jwks_uri: `${url}/jwks`,
          revocation_endpoint: `${url}/revoke`,
          code_challenge_methods_supported: ['S256'],
        });
      case '/jwks':
        return send(response, 200, { keys: [jwk] });
      case '/token':
        return token(form, response);
      case '/revoke': {
        if (fake.revocationDown) return send(response, 503, { error: 'temporarily_unavailable' });
        const revoked = form.get('token') ?? '';
        fake.revoked.push({ token: revoked, hint: form.get('token_type_hint') });
        refreshTokens.delete(revoked);
        accessTokens.delete(revoked);
        return send(response, 200, {});
      }
      case '/api/organizations': {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!bearer || !accessTokens.has(bearer)) return send(response, 401, { error: 'invalid_token' });
        if (hanging) {
          const { started, closed } = hanging;
          hanging = null;
          started();
          response.on('close', closed);
          return; // never answers
        }
        return send(response, 200, { organizations: FAKE_ORGANIZATIONS });
      }
      default:
        return send(response, 404, { error: 'not_found' });
    }
  }

  return fake;
}
