import { USER_NAME_MAX } from '@portal/contract';
import { PASSWORD_MIN_LENGTH } from '../access/password-policy.ts';
import { formatWait, type Translate } from './i18n.ts';
import {
  createIdentity,
  EmailTakenError,
  findIdentityByEmail,
  isValidEmail,
  type Identity,
} from './identities.ts';
import {
  field,
  invitationOf,
  passwordError,
  type InteractionCall,
  type InteractionKit,
} from './interaction-kit.ts';
import { sendActionMail, sendRegistrationAttemptMail } from './mails.ts';
import { finishSignIn } from './second-factor.ts';
import { messagePage, registerPage, type RegisterValues } from './views.ts';

type RegisterErrors = NonNullable<Parameters<typeof registerPage>[1]['errors']>;

function hintedValues(hint: unknown): RegisterValues | undefined {
  return typeof hint === 'string' && hint.includes('@') ? { email: hint } : undefined;
}

/** Length in characters (code points), as the API's schemas count it. */
const length = (text: string) => [...text].length;

/** A required name part: the error to show at its field, if any. */
function namePartError(t: Translate, part: string): string | undefined {
  if (!part) return t('required');
  if (length(part) > USER_NAME_MAX) return t('nameTooLong', { max: USER_NAME_MAX });
  return undefined;
}

/**
 * First and last name become the user's name: each, and both with the space between them, fit the limit of a
 * user's name (USER_NAME_MAX), or the field says so — nothing is cut.
 */
function nameErrors(t: Translate, firstName: string, lastName: string): RegisterErrors {
  const errors = { firstName: namePartError(t, firstName), lastName: namePartError(t, lastName) };
  if (!errors.firstName && !errors.lastName && length(`${firstName} ${lastName}`) > USER_NAME_MAX) {
    errors.lastName = t('fullNameTooLong', { max: USER_NAME_MAX });
  }
  return errors;
}

/**
 * Registration (prompt=create). Its answer is the same for a new and for a registered address — "check your
 * mail" — so that it does not tell who has an account: a new address gets its identity (not yet verified) and a
 * link that proves the address and signs in; the owner of a registered address gets a mail saying someone tried,
 * with links to sign in and to set a new password. Both paths hash the password, try the insert, create one
 * mailed link and queue one mail, so their timing is alike. Each client address may register only so often (the sign-in lockout's counters).
 *
 * One exception: a new identity for exactly the address an open invitation's link was mailed to, registered from
 * that link, is verified at once and signed in, back to the invitation — no second mail (decision 193). Only the
 * holder of that link learns that the address was new.
 */
export function registerRegistrationFlow(kit: InteractionKit) {
  const { db, guard, config } = kit.deps;

  async function show(
    call: InteractionCall,
    extra: { values?: RegisterValues; errors?: RegisterErrors; status?: number } = {},
  ) {
    // Through an open invitation's link: the page names its account and the address is the invited one (214).
    const invitation = await invitationOf(kit, call);
    return kit.sendInteractionPage(
      call,
      '/register',
      (ctx, links) =>
        registerPage(ctx, {
          links,
          // An address the client suggests (login_hint, e.g. the invited one) fills the empty form.
          values: extra.values ?? hintedValues(call.interaction.params.login_hint),
          errors: extra.errors,
          passwordMin: PASSWORD_MIN_LENGTH,
          invitation: invitation ?? undefined,
        }),
      extra.status,
    );
  }

  /** The one answer to a registration: a mail is on its way to `email`. */
  function showSent(call: InteractionCall, email: string) {
    const { t } = call;
    return kit.sendInteractionPage(call, '/register', (ctx) =>
      messagePage(ctx, {
        title: t('registerSentTitle'),
        alert: { kind: 'success', text: t('registerSent', { email }) },
      }),
    );
  }

  kit.interactionRoute('GET', '/register', async (call) => show(call));

  kit.interactionRoute('POST', '/register', async (call) => {
    const { request, locale, t, interaction } = call;
    // Through an open invitation's link the address is the invited one, whatever the form posts: the page shows it
    // fixed, and registering with it proves it, as the mailed link does (decisions 193 and 214).
    const invitation = await invitationOf(kit, call);
    const values = {
      firstName: field(request.body, 'firstName').trim(),
      lastName: field(request.body, 'lastName').trim(),
      email: invitation?.email ?? field(request.body, 'email').trim(),
    };
    const password = field(request.body, 'password');
    const confirm = field(request.body, 'password-confirm');
    const errors: RegisterErrors = {};
    Object.assign(errors, nameErrors(t, values.firstName, values.lastName));
    if (!values.email) errors.email = t('required');
    else if (!isValidEmail(values.email)) errors.email = t('emailInvalid');
    // The name the identity gets: the policy refuses a password containing it (or the email's local part).
    const name = `${values.firstName} ${values.lastName}`;
    errors.password = await passwordError(t, password, { email: values.email, name });
    if (!confirm) errors['password-confirm'] = t('required');
    else if (confirm !== password) errors['password-confirm'] = t('passwordMismatch');
    if (Object.values(errors).some(Boolean)) return show(call, { values, errors, status: 400 });

    // Every complete registration counts against the client address, in one atomic step.
    const limited = await guard.reserve([
      { key: registrationKey(request.ip), threshold: config.idp.bruteForce.maxRegistrationsPerAddress },
    ]);
    if ('lockedFor' in limited) {
      return kit.sendInteractionPage(
        call,
        '/register',
        (ctx) =>
          messagePage(ctx, {
            title: t('registerTitle'),
            alert: {
              kind: 'error',
              text: t('registerLimited', { wait: formatWait(t, locale, limited.lockedFor) }),
            },
          }),
        429,
      );
    }

    // Both paths hash the password and try the insert; a registered address ends at its unique index.
    const proved = invitation !== null;
    let identity: Identity | undefined;
    try {
      identity = await createIdentity(db, {
        email: values.email,
        name,
        password,
        locale,
        emailVerified: proved,
      });
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
    }
    if (identity && proved) {
      return finishSignIn(kit, call, identity.id, ['pwd']);
    }
    if (identity) {
      await sendActionMail(kit.deps, 'verify-email', identity, interaction.uid);
    } else {
      const owner = await findIdentityByEmail(db, values.email);
      if (owner) await sendRegistrationAttemptMail(kit.deps, owner, interaction.uid);
    }
    return showSent(call, values.email);
  });

  return { show: (call: InteractionCall) => show(call) };
}

/** The registration counter of a client address (next to the sign-in lockout's counters). */
const registrationKey = (address: string) => `register:${address}`;
