import { consumeActionToken } from './action-tokens.ts';
import { markEmailVerified, type Identity } from './identities.ts';
import { interactionPath, type InteractionCall, type InteractionKit } from './interaction-kit.ts';
import { sendActionMail } from './mails.ts';
import { verifyEmailPage, type Alert } from './views.ts';

/**
 * Email verification (kc_action=VERIFY_EMAIL, an unverified address): a mailed one-time link proves the address.
 * Opened in the same browser while the flow is still open, it continues straight back to the app; "continue"
 * goes on once the address is verified.
 */
export function registerEmailVerificationFlow(kit: InteractionKit) {
  const { db } = kit.deps;

  function show(call: InteractionCall, identity: Identity | undefined, alert?: Alert) {
    if (!identity) return kit.expired(call);
    const base = interactionPath(call.interaction.uid);
    return kit.sendInteractionPage(call, '', (ctx) =>
      verifyEmailPage(ctx, {
        email: identity.email,
        resendAction: `${base}/verify-email/resend`,
        continueAction: `${base}/verify-email/continue`,
        alert,
      }),
    );
  }

  // The link from the mail.
  kit.linkRoute('GET', '/verify-email', async (call) => {
    const key = String(call.request.query.key ?? '');
    const owner = key ? await consumeActionToken(db, 'verify-email', key) : undefined;
    const verified = owner ? await markEmailVerified(db, owner.identityId, owner.email) : false;
    if (!owner || !verified) {
      return kit.notice(call, { title: 'verifyTitle', kind: 'error', text: 'linkInvalid', status: 400 });
    }
    // Same browser, flow still open: continue straight back to the app.
    const interaction = await kit.pendingInteraction(call);
    if (
      interaction &&
      interaction.prompt.name === 'verify_email' &&
      interaction.session?.accountId === owner.identityId
    ) {
      return kit.finish(call, { verify_email: { verified: true } });
    }
    // Same browser, registration still open: the new identity is signed in (replacing whoever was before).
    if (interaction && (interaction.prompt.name === 'create' || interaction.prompt.name === 'login')) {
      return kit.finish(call, {
        login: { accountId: owner.identityId, remember: false, amr: ['pwd'] },
        create: {},
      });
    }
    return kit.notice(call, { title: 'verifyTitle', kind: 'success', text: 'verifyDone' });
  });

  kit.interactionRoute(
    'POST',
    '/verify-email/continue',
    async (call) => {
      const identity = await kit.sessionIdentity(call.interaction);
      if (identity?.emailVerified) return kit.finish(call, { verify_email: { verified: true } });
      return show(call, identity, { kind: 'error', text: call.t('verifyNotYet') });
    },
    'verify_email',
  );

  kit.interactionRoute(
    'POST',
    '/verify-email/resend',
    async (call) => {
      const identity = await kit.sessionIdentity(call.interaction);
      if (!identity) return kit.expired(call);
      if (!(await sendActionMail(kit.deps, 'verify-email', identity, call.interaction.uid))) {
        return show(call, identity, { kind: 'info', text: call.t('tooManyMails') });
      }
      return show(call, identity, { kind: 'success', text: call.t('verifyResent') });
    },
    'verify_email',
  );

  return {
    /** The interaction page at this prompt: mails the link (unless one just went out) and says so. */
    async show(call: InteractionCall) {
      const identity = await kit.sessionIdentity(call.interaction);
      if (identity) await sendActionMail(kit.deps, 'verify-email', identity, call.interaction.uid);
      return show(call, identity);
    },
  };
}
