import { USER_NAME_MAX } from '@portal/contract';
import type { Translate } from './i18n.ts';
import {
  createIdentity,
  EmailTakenError,
  findIdentityByEmail,
  isValidEmail,
  PASSWORD_MIN_LENGTH,
  type Identity,
} from './identities.ts';
import { field, passwordError, type InteractionCall, type InteractionKit } from './interaction-kit.ts';
import { registerPage, type RegisterValues } from './views.ts';

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
 * Registration (prompt=create): a new identity, its address not yet verified, signed in on this interaction —
 * replacing whoever was signed in before.
 */
export function registerRegistrationFlow(kit: InteractionKit) {
  const { db } = kit.deps;

  function show(
    call: InteractionCall,
    extra: { values?: RegisterValues; errors?: RegisterErrors; status?: number } = {},
  ) {
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
        }),
      extra.status,
    );
  }

  kit.interactionRoute('GET', '/register', async (call) => show(call));

  kit.interactionRoute('POST', '/register', async (call) => {
    const { request, locale, t } = call;
    const values = {
      firstName: field(request.body, 'firstName').trim(),
      lastName: field(request.body, 'lastName').trim(),
      email: field(request.body, 'email').trim(),
    };
    const password = field(request.body, 'password');
    const confirm = field(request.body, 'password-confirm');
    const errors: RegisterErrors = {};
    Object.assign(errors, nameErrors(t, values.firstName, values.lastName));
    if (!values.email) errors.email = t('required');
    else if (!isValidEmail(values.email)) errors.email = t('emailInvalid');
    errors.password = passwordError(t, password);
    if (!confirm) errors['password-confirm'] = t('required');
    else if (confirm !== password) errors['password-confirm'] = t('passwordMismatch');
    if (!errors.email && (await findIdentityByEmail(db, values.email))) errors.email = t('emailTaken');
    if (Object.values(errors).some(Boolean)) return show(call, { values, errors, status: 400 });
    let identity: Identity;
    try {
      identity = await createIdentity(db, {
        email: values.email,
        name: `${values.firstName} ${values.lastName}`,
        password,
        locale,
      });
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      return show(call, { values, errors: { email: t('emailTaken') }, status: 400 });
    }
    return kit.finish(call, {
      create: {},
      login: { accountId: identity.id, remember: false, amr: ['pwd'] },
    });
  });

  return { show: (call: InteractionCall) => show(call) };
}
