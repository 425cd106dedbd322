import { formatWait } from './i18n.ts';
import { findIdentityByEmail, verifyPassword } from './identities.ts';
import { field, invitationOf, type InteractionCall, type InteractionKit } from './interaction-kit.ts';
import { passkeyLoginSection, registerPasskeyLogin } from './passkey-sign-in.ts';
import { awaitSecondFactor, finishSignIn, hasSecondFactor, secondFactorsOf } from './second-factor.ts';
import { recordSignIn, type SignInOutcome } from './sign-in-history.ts';
import { invitationLoginPage, loginPage, type Alert } from './views.ts';

/**
 * Sign-in with email and password. Failures lock the identity and the client address for a while (growing with
 * each further failure); while locked, even the right password is refused.
 */
export function registerLoginFlow(kit: InteractionKit) {
  const { db, guard, config } = kit.deps;
  const bf = config.idp.bruteForce;

  async function show(
    call: InteractionCall,
    extra: { username?: string; alert?: Alert; status?: number } = {},
  ) {
    const { login_hint: hint } = call.interaction.params;
    const passkey = await passkeyLoginSection(kit, call);
    // A sign-in that started from an open invitation's link names the invitation (decision 214).
    const invitation = await invitationOf(kit, call);
    const username = extra.username ?? (typeof hint === 'string' ? hint : undefined);
    return kit.sendInteractionPage(
      call,
      '/login',
      (ctx, links) =>
        invitation
          ? invitationLoginPage(ctx, { links, invitation, username, alert: extra.alert, passkey })
          : loginPage(ctx, { links, username, alert: extra.alert, passkey }),
      extra.status,
    );
  }

  kit.interactionRoute('GET', '/login', async (call) => show(call));
  // Signing in with a passkey instead of the password (the login page's passkey button posts there).
  registerPasskeyLogin(kit, show);

  kit.interactionRoute('POST', '/login', async (call) => {
    const { request, locale, t } = call;
    const username = field(request.body, 'username').trim();
    const password = field(request.body, 'password');
    if (!username || !password) {
      return show(call, { username, alert: { kind: 'error', text: t('invalidCredentials') }, status: 400 });
    }
    const lockout = (seconds: number) =>
      show(call, {
        username,
        alert: { kind: 'error', text: t('lockedOut', { wait: formatWait(t, locale, seconds) }) },
        status: 429,
      });

    // The attempt is counted before the password is checked (and given back when it is right), so parallel
    // attempts cannot check more passwords than the limits allow.
    const identityKey = guard.identityKey(username);
    const reserved = await guard.reserve([
      { key: guard.addressKey(request.ip), threshold: bf.maxFailuresPerAddress },
      { key: identityKey, threshold: bf.maxFailuresPerIdentity },
    ]);
    // A known identity's failed attempts go into its sign-in history.
    const failed = async (identityId: string | undefined, outcome: SignInOutcome) => {
      if (!identityId) return;
      const origin = { userAgent: request.headers['user-agent'], ip: request.ip };
      await recordSignIn(db, { identityId, outcome, method: 'password', ...origin });
    };
    if ('lockedFor' in reserved) {
      await failed((await findIdentityByEmail(db, username))?.id, 'locked');
      return lockout(reserved.lockedFor);
    }

    const { identity, valid } = await verifyPassword(db, username, password);
    if (!identity || !valid) {
      const wait = guard.failed(reserved.reservation);
      await failed(identity?.id, wait > 0 ? 'locked' : 'wrong-password');
      if (wait > 0) return lockout(wait);
      return show(call, { username, alert: { kind: 'error', text: t('invalidCredentials') } });
    }
    // With a second factor set up, the password alone signs nobody in: the second-factor page settles it. The
    // identity's failures stay counted until then, so wrong codes keep adding up even with the right password.
    if (hasSecondFactor(await secondFactorsOf(db, identity.id))) {
      await guard.giveBack(reserved.reservation);
      return awaitSecondFactor(kit, call, identity.id);
    }
    await guard.succeeded(reserved.reservation, identityKey);
    return finishSignIn(kit, call, identity.id, ['pwd']);
  });

  return { show: (call: InteractionCall) => show(call) };
}
