import { PASSWORD_MIN_LENGTH } from '../access/password-policy.ts';
import { ACTION_TTL, consumeActionToken, peekActionToken } from './action-tokens.ts';
import { changePassword } from './credentials.ts';
import {
  findIdentityByEmail,
  findIdentityById,
  isCurrentPassword,
  isValidEmail,
  markEmailVerified,
} from './identities.ts';
import {
  field,
  interactionPath,
  passwordError,
  sendPage,
  type InteractionCall,
  type InteractionKit,
  type PageCall,
} from './interaction-kit.ts';
import { sendActionMail } from './mails.ts';
import { forgotPage, resetPage, type Alert } from './views.ts';

type ResetErrors = NonNullable<Parameters<typeof resetPage>[1]['errors']>;

/**
 * Forgot password → a mailed one-time link → a new password. Asking for the link answers the same whether or not
 * the address is known. The link works in any browser; where the login is still pending, saving signs in.
 */
export function registerPasswordResetFlow(kit: InteractionKit) {
  const { db, guard } = kit.deps;

  function showForgot(
    call: InteractionCall,
    extra: { email?: string; alert?: Alert; sent?: boolean; status?: number } = {},
  ) {
    return kit.sendInteractionPage(
      call,
      '/forgot',
      (ctx, links) =>
        forgotPage(ctx, {
          links,
          email: extra.email,
          alert: extra.alert,
          sent: extra.sent,
        }),
      extra.status,
    );
  }

  function showReset({ request, reply, locale }: PageCall, key: string, errors?: ResetErrors) {
    return sendPage(
      reply,
      resetPage(kit.pageContext(locale), {
        action: `${interactionPath(request.params.uid)}/reset`,
        key,
        errors,
        passwordMin: PASSWORD_MIN_LENGTH,
      }),
      errors ? 400 : 200,
    );
  }

  const invalidLink = (call: PageCall) =>
    kit.notice(call, { title: 'resetTitle', kind: 'error', text: 'linkInvalid', status: 400 });

  kit.interactionRoute('GET', '/forgot', async (call) => showForgot(call));

  kit.interactionRoute('POST', '/forgot', async (call) => {
    const { request, interaction, t } = call;
    const email = field(request.body, 'username').trim();
    if (!isValidEmail(email)) {
      return showForgot(call, { email, alert: { kind: 'error', text: t('emailInvalid') }, status: 400 });
    }
    const identity = await findIdentityByEmail(db, email);
    // The answer is the same whether or not the address is known.
    if (identity) await sendActionMail(kit.deps, 'reset-password', identity, interaction.uid);
    return showForgot(call, {
      sent: true,
      alert: { kind: 'success', text: t('forgotSent', { minutes: ACTION_TTL['reset-password'] / 60 }) },
    });
  });

  // The link from the mail.
  kit.linkRoute('GET', '/reset', async (call) => {
    const key = String(call.request.query.key ?? '');
    const owner = key ? await peekActionToken(db, 'reset-password', key) : undefined;
    if (!owner) return invalidLink(call);
    return showReset(call, key);
  });

  kit.linkRoute('POST', '/reset', async (call) => {
    const { request, t } = call;
    const key = field(request.body, 'key');
    const password = field(request.body, 'password');
    const confirm = field(request.body, 'password-confirm');
    const holder = key ? await peekActionToken(db, 'reset-password', key) : undefined;
    const identity = holder && (await findIdentityById(db, holder.identityId));
    if (!identity) return invalidLink(call);
    const errors: ResetErrors = {};
    if (confirm !== password) errors['password-confirm'] = confirm ? t('passwordMismatch') : t('required');
    // The current password is refused as the new one, but asked only of a confirmed password: one that differs is
    // then saved and the link used up, so the page answers "not the current one" once per link (no oracle).
    const isCurrent =
      confirm === password ? (candidate: string) => isCurrentPassword(db, identity.id, candidate) : undefined;
    errors.password = await passwordError(t, password, identity, isCurrent);
    if (Object.values(errors).some(Boolean)) return showReset(call, key, errors);
    // Used up only now, atomically: of two submissions of one link, one wins.
    const owner = await consumeActionToken(db, 'reset-password', key);
    if (!owner) return invalidLink(call);
    // Whoever knew the old password is signed out everywhere.
    await changePassword(db, owner.identityId, password);
    // Opening the mailed link proved the address.
    await markEmailVerified(db, owner.identityId, owner.email);
    await guard.reset(guard.identityKey(owner.email));

    const interaction = await kit.pendingInteraction(call);
    if (interaction && interaction.prompt.name === 'login') {
      return kit.finish(call, {
        login: { accountId: owner.identityId, remember: false, amr: ['pwd'] },
        create: {},
      });
    }
    return kit.notice(call, { title: 'resetTitle', kind: 'success', text: 'passwordChanged' });
  });
}
