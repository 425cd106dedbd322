import { escapeHtml as h } from '../http/html.ts';
import { formatWait, type Messages } from './i18n.ts';
import { findIdentityById } from './identities.ts';
import { field, type InteractionCall, type InteractionKit } from './interaction-kit.ts';
import { finishSignIn, pendingSecondFactor, type SecondFactorPage } from './second-factor.ts';
import { recordSignIn } from './sign-in-history.ts';
import { findTotp, recoveryCodesLeft, totpStep, useRecoveryCode, useTotpStep } from './totp.ts';
import { sendTotpEventMail } from './totp-mails.ts';
import { field as inputField, localeInput } from './views.ts';

const TOTP_PAGE = '/second-factor/totp';
const RECOVERY_PAGE = '/second-factor/recovery';

/**
 * The authenticator app on the second-factor page: a form for its 6-digit code, and (behind a disclosure that works
 * without script) a form for a single-use recovery code. Every attempt counts towards the same lockout as the
 * password (per identity and client address), counted before the check; a code of a time step at or before the last
 * accepted one is refused, and a recovery code works once.
 */
export function registerTotpSecondFactor(kit: InteractionKit, page: SecondFactorPage): void {
  const { db, guard, secrets, config, mailer } = kit.deps;
  const bf = config.idp.bruteForce;

  page.addSection((call, factors, extra) => {
    if (!factors.totp) return '';
    const { t, locale } = call;
    const action = (path: string) => h(`${kit.pagePath(call, path)}?kc_locale=${locale}`);
    // After a wrong recovery code its form stays open, with the error.
    const recoveryFailed = call.request.method === 'POST' && call.request.url.includes(RECOVERY_PAGE);
    const failed = extra.alert?.kind === 'error';
    return `<form id="kc-otp-login-form" method="post" action="${action(TOTP_PAGE)}" novalidate>
${localeInput(locale)}
${inputField({
  id: 'otp',
  label: t('totpLabel'),
  autocomplete: 'one-time-code',
  hint: t('totpHint'),
  autofocus: !recoveryFailed,
  describedBy: failed && !recoveryFailed ? 'input-error' : undefined,
  extra: 'inputmode="numeric" pattern="[0-9 ]*" maxlength="7" spellcheck="false"',
})}
<button id="kc-login" name="login" type="submit" class="kc-button">${h(t('totpSubmit'))}</button>
</form>
<details class="kc-secondary-form" id="kc-recovery"${recoveryFailed ? ' open' : ''}>
<summary>${h(t('recoveryToggle'))}</summary>
<form id="kc-recovery-form" method="post" action="${action(RECOVERY_PAGE)}" novalidate>
${localeInput(locale)}
${inputField({
  id: 'recovery-code',
  name: 'recoveryCode',
  label: t('recoveryLabel'),
  autocomplete: 'off',
  hint: t('recoveryHint'),
  autofocus: recoveryFailed,
  describedBy: recoveryFailed ? 'input-error' : undefined,
  extra: 'autocapitalize="none" spellcheck="false" maxlength="20"',
})}
<button id="kc-recovery-login" type="submit" class="kc-button kc-button-secondary">${h(t('recoverySubmit'))}</button>
</form>
</details>`;
  });

  /**
   * One attempt at the second factor: counted first, then `check` (true when the code is right and now used up).
   * Wrong: the page again with `invalid`; too many: the wait. Right: the identity's failures are forgotten (only
   * now, not at the password) and the sign-in ends.
   */
  async function attempt(
    call: InteractionCall,
    method: 'totp' | 'recovery-code',
    invalid: keyof Messages,
    check: (identityId: string) => Promise<boolean>,
    onSuccess?: (identityId: string) => Promise<void>,
  ) {
    const accountId = pendingSecondFactor(call);
    const identity = accountId ? await findIdentityById(db, accountId) : undefined;
    if (!identity) return page.show(call);
    const { t, locale, request } = call;
    const lockout = (seconds: number) =>
      page.show(call, {
        alert: { kind: 'error', text: t('lockedOut', { wait: formatWait(t, locale, seconds) }) },
        status: 429,
      });
    const identityKey = guard.identityKey(identity.email);
    const reserved = await guard.reserve([
      { key: guard.addressKey(request.ip), threshold: bf.maxFailuresPerAddress },
      { key: identityKey, threshold: bf.maxFailuresPerIdentity },
    ]);
    if ('lockedFor' in reserved) return lockout(reserved.lockedFor);
    if (!(await check(identity.id))) {
      await recordSignIn(db, {
        identityId: identity.id,
        outcome: 'second-factor-failed',
        method,
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      });
      const wait = guard.failed(reserved.reservation);
      if (wait > 0) return lockout(wait);
      return page.show(call, { alert: { kind: 'error', text: t(invalid) }, status: 401 });
    }
    await guard.succeeded(reserved.reservation, identityKey);
    await onSuccess?.(identity.id);
    // A recovery code is told apart in the amr as `kba` (a secret the person kept), an app's code as `otp`.
    return finishSignIn(kit, call, identity.id, ['pwd', method === 'totp' ? 'otp' : 'kba', 'mfa']);
  }

  kit.interactionRoute('POST', TOTP_PAGE, (call) =>
    attempt(call, 'totp', 'totpInvalid', async (identityId) => {
      const totp = await findTotp(db, secrets, identityId);
      if (!totp?.confirmed) return false;
      const step = totpStep(totp.secret, field(call.request.body, 'otp'), { lastStep: totp.lastStep });
      // The update takes the step only when it is later than the last used one, so a replay loses any race.
      return step !== null && (await useTotpStep(db, identityId, step));
    }),
  );

  kit.interactionRoute('POST', RECOVERY_PAGE, (call) =>
    attempt(
      call,
      'recovery-code',
      'recoveryInvalid',
      async (identityId) =>
        (await findTotp(db, secrets, identityId))?.confirmed === true &&
        useRecoveryCode(db, identityId, field(call.request.body, 'recoveryCode')),
      // The person is told, with how many codes are left: a used code they did not use means it is known.
      async (identityId) =>
        sendTotpEventMail({ db, mailer, productName: config.productName }, 'recoveryCodeUsed', identityId, {
          left: await recoveryCodesLeft(db, identityId),
        }),
    ),
  );
}
