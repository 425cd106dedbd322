import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../http/html.ts';
import type { Messages } from './i18n.ts';
import { field, type InteractionCall, type InteractionKit } from './interaction-kit.ts';
import { authenticationOptions, parseAssertion, verifyAssertion } from './passkeys.ts';
import {
  finishSignIn,
  pendingSecondFactor,
  type SecondFactorPage,
  type SecondFactors,
} from './second-factor.ts';
import { RESOURCES_PATH, type Alert } from './views.ts';
import { findIdentityById } from './identities.ts';
import { formatWait } from './i18n.ts';
import { recordSignIn } from './sign-in-history.ts';

/**
 * Signing in with a passkey on the provider's pages: as the second factor after a right password, and on the login
 * page instead of the password. The pages carry no inline script (strict CSP): a button holds the options, one
 * small script file (passkey.js, with @simplewebauthn/browser's bundle) asks the browser and posts its answer.
 * Without JavaScript or WebAuthn the buttons stay hidden.
 */

/** How a sign-in with a passkey is recorded (RFC 8176): after the password, the passkey is the second factor. */
export const SECOND_FACTOR_AMR = ['pwd', 'hwk', 'mfa'];
/**
 * Without a password: possession of the passkey and the person verified by the authenticator (PIN, biometrics),
 * two factors as well.
 */
export const PASSWORDLESS_AMR = ['hwk', 'user', 'mfa'];

export const PASSKEY_SCRIPT_PATH = `${RESOURCES_PATH}/passkey.js`;
export const WEBAUTHN_SCRIPT_PATH = `${RESOURCES_PATH}/simplewebauthn-browser.js`;

const passkeyScript = fs.readFileSync(new URL('./passkey.js', import.meta.url), 'utf8');
// The browser library's one-file bundle (global SimpleWebAuthnBrowser), served as it is installed: no CDN.
const browserBundle = fs.readFileSync(
  path.join(
    path.dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
    '../dist/bundle/index.umd.min.js',
  ),
  'utf8',
);

/** Serves the passkey script and the browser library under the realm's resources. */
export function registerPasskeyResources(app: FastifyInstance): void {
  for (const [url, body] of [
    [PASSKEY_SCRIPT_PATH, passkeyScript],
    [WEBAUTHN_SCRIPT_PATH, browserBundle],
  ] as const) {
    app.get(url, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body),
    );
  }
}

const h = escapeHtml;

/**
 * A passkey button in its own form, hidden until the script finds WebAuthn. `options` are the browser's sign-in
 * options (with this sign-in's challenge); the form posts the browser's answer to `action`.
 */
function passkeySection(
  call: InteractionCall,
  o: { action: string; label: keyof Messages; options: unknown; before?: string },
): string {
  const { t, locale } = call;
  return `<section id="kc-passkey-section" class="kc-secondary-form" data-passkey hidden>
${o.before ?? ''}<form id="kc-passkey-form" method="post" action="${h(o.action)}">
<input type="hidden" name="kc_locale" value="${locale}">
<input type="hidden" name="response" value="">
<button id="kc-passkey" type="button" class="kc-button kc-button-secondary" data-options="${h(JSON.stringify(o.options))}">${h(t(o.label))}</button>
</form>
<p class="kc-alert kc-alert-info" role="status" data-passkey-message data-cancelled="${h(t('passkeyCancelled'))}" hidden></p>
</section>
<script src="${WEBAUTHN_SCRIPT_PATH}" defer></script>
<script src="${PASSKEY_SCRIPT_PATH}" defer></script>`;
}

/** The login page's "Mit Passkey anmelden" (any passkey of this site; the person is found by it). */
export async function passkeyLoginSection(kit: InteractionKit, call: InteractionCall): Promise<string> {
  // Only the portal's realm keeps passkeys.
  if (kit.deps.realm) return '';
  const options = await authenticationOptions(kit.deps.db, kit.deps.config, {
    interactionUid: call.interaction.uid,
  });
  return passkeySection(call, {
    action: kit.pagePath(call, '/login/passkey'),
    label: 'passkeySignIn',
    options,
    before: `<p class="kc-alt">${h(call.t('passkeyOr'))}</p>\n`,
  });
}

type ShowLogin = (call: InteractionCall, extra?: { alert?: Alert; status?: number }) => Promise<unknown>;

/**
 * Failures count towards the brute-force lockout of the client address (and, as the second factor, of the
 * person): `attempt` runs within a reserved attempt and answers who signed in, or undefined.
 */
async function guarded(
  kit: InteractionKit,
  call: InteractionCall,
  identityKey: string | undefined,
  attempt: () => Promise<string | undefined>,
  refuse: (alert: Alert, status: number) => Promise<unknown>,
): Promise<{ accountId: string } | { refused: unknown }> {
  const { guard, config } = kit.deps;
  const bf = config.idp.bruteForce;
  const { t, locale } = call;
  const keys = [{ key: guard.addressKey(call.request.ip), threshold: bf.maxFailuresPerAddress }];
  if (identityKey) keys.push({ key: identityKey, threshold: bf.maxFailuresPerIdentity });
  const lockout = (seconds: number) =>
    refuse({ kind: 'error', text: t('lockedOut', { wait: formatWait(t, locale, seconds) }) }, 429);
  const reserved = await guard.reserve(keys);
  if ('lockedFor' in reserved) return { refused: await lockout(reserved.lockedFor) };
  const accountId = await attempt();
  if (!accountId) {
    const wait = guard.failed(reserved.reservation);
    if (wait > 0) return { refused: await lockout(wait) };
    return { refused: await refuse({ kind: 'error', text: t('passkeyFailed') }, 400) };
  }
  await guard.succeeded(reserved.reservation, identityKey ?? '');
  return { accountId };
}

/** Sign-in with a passkey instead of the password: the login page's button posts here. */
export function registerPasskeyLogin(kit: InteractionKit, showLogin: ShowLogin): void {
  const { db, config } = kit.deps;
  if (kit.deps.realm) return;
  kit.interactionRoute('POST', '/login/passkey', async (call) => {
    const outcome = await guarded(
      kit,
      call,
      undefined,
      async () => {
        const response = parseAssertion(field(call.request.body, 'response'));
        if (!response) return undefined;
        const result = await verifyAssertion(db, config, { interactionUid: call.interaction.uid }, response);
        return result?.userVerified ? result.identityId : undefined;
      },
      (alert, status) => showLogin(call, { alert, status }),
    );
    if ('refused' in outcome) return outcome.refused;
    return finishSignIn(kit, call, outcome.accountId, PASSWORDLESS_AMR);
  });
}

/**
 * The second-factor page's passkey section ("Mit Passkey bestätigen", the person's own passkeys only) and the
 * route its form posts to.
 */
export function registerPasskeySecondFactor(kit: InteractionKit, page: SecondFactorPage): void {
  const { db, config, guard } = kit.deps;

  page.addSection(async (call: InteractionCall, factors: SecondFactors) => {
    const identityId = pendingSecondFactor(call);
    if (!identityId || factors.passkeys === 0) return '';
    const options = await authenticationOptions(db, config, {
      interactionUid: call.interaction.uid,
      identityId,
    });
    return passkeySection(call, {
      action: kit.pagePath(call, '/second-factor/passkey'),
      label: 'passkeySecondFactor',
      options,
      before: `<p>${h(call.t('passkeySecondFactorIntro'))}</p>\n`,
    });
  });

  kit.interactionRoute('POST', '/second-factor/passkey', async (call) => {
    const identityId = pendingSecondFactor(call);
    const identity = identityId ? await findIdentityById(db, identityId) : undefined;
    if (!identity) return page.show(call);
    const outcome = await guarded(
      kit,
      call,
      guard.identityKey(identity.email),
      async () => {
        const response = parseAssertion(field(call.request.body, 'response'));
        if (!response) return undefined;
        const binding = { interactionUid: call.interaction.uid, identityId: identity.id };
        return (await verifyAssertion(db, config, binding, response))?.identityId;
      },
      (alert, status) => page.show(call, { alert, status }),
    );
    if ('refused' in outcome) {
      await recordSignIn(db, {
        identityId: identity.id,
        outcome: 'second-factor-failed',
        method: 'passkey',
        userAgent: call.request.headers['user-agent'],
        ip: call.request.ip,
      });
      return outcome.refused;
    }
    return finishSignIn(kit, call, outcome.accountId, SECOND_FACTOR_AMR);
  });
}
