import type Keycloak from 'keycloak-js';
import type { KeycloakLoginOptions } from 'keycloak-js';
import { config } from '@/config.ts';
import { clearInitFailures, recordInitFailure } from './init-failures.ts';
import { CALLBACK_PATH, SIGNUP_PATH, saveRequestedLocation } from './requested-location.ts';
import { startTokenRefresh } from './token-refresh.ts';
import { clearTokens, readTokens, writeTokens } from './tokens.ts';

/** The scopes the portal asks the identity provider for at sign-in. */
export const SCOPES = 'profile email portal accounts support';

export type AuthStart =
  { status: 'authenticated' } | { status: 'redirecting' } | { status: 'failed'; error: unknown };

/**
 * The keycloak-js client `startAuth` creates. Its chunk loads first (decision 269): a reload with a saved session
 * shows its page before it is in, so a sign-out clicked meanwhile waits for it.
 */
let client: Promise<Keycloak> | null = null;
/** The same client once it is in. */
let loaded: Keycloak | null = null;
let stopRefresh: (() => void) | null = null;
/** Set once the session ended in place: a refresh still in flight must not bring the tokens back. */
let ended = false;

async function keycloak(): Promise<Keycloak> {
  if (!client) throw new Error('Not authenticated');
  return client;
}

function store(kc: Keycloak): void {
  if (ended) return;
  writeTokens({ token: kc.token, refreshToken: kc.refreshToken, idToken: kc.idToken });
}

/** The provider's logout of the session ended in place, while it runs (a login waits for it). */
let pendingLogout: Promise<void> | null = null;

/**
 * Ends the provider's SSO session without leaving the page: Keycloak's logout with the refresh token (decision
 * 013) ends the session and grant it belongs to. Best effort: the page has forgotten the tokens either way.
 */
function endProviderSession(refreshToken: string): void {
  const { oidc } = config();
  const body = new URLSearchParams({ client_id: oidc.clientId, refresh_token: refreshToken });
  const request = fetch(`${oidc.url}/realms/${oidc.realm}/protocol/openid-connect/logout`, {
    method: 'POST',
    body,
    // Completes even when the user goes to the login page at once.
    keepalive: true,
  }).then(
    () => undefined,
    () => undefined,
  );
  pendingLogout = request;
  void request.finally(() => {
    if (pendingLogout === request) pendingLogout = null;
  });
}

function callbackUri(): string {
  return `${window.location.origin}${CALLBACK_PATH}`;
}

type PageLocation = Pick<Location, 'pathname' | 'search' | 'origin'>;

/** The invitation link the page was opened from (/invite/verify?token=…&email=…): its token and address. */
function invitationLink(location: PageLocation): { token?: string; email?: string } {
  if (location.pathname !== '/invite/verify') return {};
  const query = new URLSearchParams(location.search);
  return { token: query.get('token') ?? undefined, email: query.get('email') ?? undefined };
}

/**
 * The sign-in address `loginUrl` with the token of the invitation link the page was opened from, as `invitation`:
 * registering there with exactly the invited address proves that address, as the mailed link does (decision 193).
 * Only the embedded sign-in service (on the page's own origin) gets it; an external Keycloak is not told.
 */
export function withInvitation(loginUrl: string, location: PageLocation = window.location): string {
  const { token } = invitationLink(location);
  const url = new URL(loginUrl, location.origin);
  if (!token || url.origin !== location.origin) return loginUrl;
  url.searchParams.set('invitation', token);
  return url.href;
}

/** keycloak-js' login, carrying the invitation link's token when the page was opened from one. */
async function loginFromPage(kc: Keycloak, options: KeycloakLoginOptions): Promise<void> {
  if (!invitationLink(window.location).token) return kc.login(options);
  window.location.assign(withInvitation(await kc.createLoginUrl(options)));
}

/**
 * Starts the sign-in flow: saves the current location, initialises keycloak-js (restoring tokens
 * from sessionStorage so a reload keeps the session) and redirects to login or registration when there is no
 * session. Any init failure clears the tokens and goes to login; a second failure within a minute is reported
 * instead, so the app can show an error page rather than loop.
 */
export async function startAuth(): Promise<AuthStart> {
  saveRequestedLocation(window.location);
  const { oidc } = config();
  // index.html preloads the client's chunk when the sign-in runs first.
  client = import('keycloak-js').then(
    ({ default: Client }) => new Client({ url: oidc.url, realm: oidc.realm, clientId: oidc.clientId }),
  );
  let kc: Keycloak;
  try {
    kc = loaded = await client;
  } catch (error) {
    return { status: 'failed', error };
  }
  kc.onAuthRefreshSuccess = () => {
    // A refresh that finished after the session ended in place (so the logout's token was already used):
    // end the session with the token it brought, and forget it.
    if (ended && kc.refreshToken) {
      endProviderSession(kc.refreshToken);
      kc.clearToken();
      return;
    }
    store(kc);
  };
  const saved = readTokens();
  try {
    const authenticated = await kc.init({
      redirectUri: callbackUri(),
      scope: SCOPES,
      responseMode: 'fragment',
      flow: 'standard',
      pkceMethod: 'S256',
      checkLoginIframe: false,
      ...(saved.token && saved.refreshToken ? saved : {}),
    });
    if (!authenticated) {
      clearTokens();
      const loginHint = invitationLink(window.location).email;
      if (window.location.pathname === SIGNUP_PATH) await kc.register({ redirectUri: callbackUri() });
      else await loginFromPage(kc, { redirectUri: callbackUri(), ...(loginHint ? { loginHint } : {}) });
      return { status: 'redirecting' };
    }
    store(kc);
    clearInitFailures();
    stopRefresh = startTokenRefresh(kc, {
      onRefreshed: () => store(kc),
      onSessionEnded: () => {
        clearTokens();
        void login();
      },
    });
    return { status: 'authenticated' };
  } catch (error) {
    clearTokens();
    if (recordInitFailure() >= 2) return { status: 'failed', error };
    try {
      await kc.login({ redirectUri: callbackUri() });
      return { status: 'redirecting' };
    } catch (loginError) {
      return { status: 'failed', error: loginError };
    }
  }
}

/**
 * The API refused the token (401): sign in again, returning to this page. A second refusal within a minute of a
 * fresh sign-in is not redirected again (the page shows its error instead of looping).
 */
export function handleUnauthorized(): void {
  if (ended || !client) return;
  if (recordInitFailure() >= 2) return;
  stopRefresh?.();
  clearTokens();
  void login();
}

/**
 * Starts a fresh login that returns to the current page. After the session ended in place the provider has no
 * session any more, so it asks for the password; the logout is awaited first so the two cannot cross.
 */
export async function login(): Promise<void> {
  saveRequestedLocation(window.location);
  await pendingLogout;
  ended = false;
  await (await keycloak()).login({ redirectUri: callbackUri() });
}

/**
 * Signs in as another person (an invitation for another address): the current session ends, then the provider's
 * login page asks for a password, with `email` filled in; afterwards the browser returns to the current page.
 */
export async function signInAs(email: string): Promise<void> {
  saveRequestedLocation(window.location);
  stopRefresh?.();
  const { refreshToken } = readTokens();
  clearTokens();
  if (refreshToken) endProviderSession(refreshToken);
  await pendingLogout;
  await loginFromPage(await keycloak(), { redirectUri: callbackUri(), loginHint: email, prompt: 'login' });
}

/**
 * Signs in again before a sensitive step where there is no password to ask (an external Keycloak): the provider
 * asks for the credentials even with a session (`prompt=login`), the new token's `auth_time` says so, and the
 * browser returns to the current page.
 */
export async function reauthenticate(): Promise<void> {
  saveRequestedLocation(window.location);
  await (await keycloak()).login({ redirectUri: callbackUri(), prompt: 'login' });
}

/** Clears the stored tokens and ends the provider session; the provider sends the browser back to the origin. */
export async function logout(): Promise<void> {
  stopRefresh?.();
  clearTokens();
  await (await keycloak()).logout({ redirectUri: `${window.location.origin}/` });
}

/**
 * Ends the session without leaving the page (after inactivity): the tokens are cleared and the
 * provider's session is ended with the refresh token, so nothing can continue it and a later login asks for
 * the password.
 */
export function endSessionInPlace(): void {
  stopRefresh?.();
  ended = true;
  const kc = loaded;
  const refreshToken = kc?.refreshToken;
  clearTokens();
  if (!kc || !refreshToken) return;
  endProviderSession(refreshToken);
  kc.clearToken();
}

/**
 * The provider's link for verifying the email address: the authorize URL with
 * kc_action=VERIFY_EMAIL and kc_locale, returning to the current page through the callback.
 */
export async function verifyEmailUrl(locale: string): Promise<string> {
  const url = new URL(
    await (await keycloak()).createLoginUrl({ redirectUri: callbackUri(), action: 'VERIFY_EMAIL', locale }),
  );
  url.searchParams.set('kc_locale', locale);
  return url.toString();
}

/** Remembers the current page so the return from the provider lands here. */
export function rememberCurrentPage(): void {
  saveRequestedLocation(window.location);
}
