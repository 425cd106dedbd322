import {
  isEmailAddress,
  type EmailChange,
  type EmailChangeState,
  type PasswordChange,
} from '@portal/contract';
import { checkNewPassword, passwordProblemText, type PasswordProblem } from '../../access/password-policy.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, invalidField } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { checkLimit } from '../../limits/limits.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { changePassword } from '../../idp/credentials.ts';
import { findIdentityByEmail } from '../../idp/identities.ts';
import {
  cancelEmailChange,
  pendingEmailChange,
  requestEmailChange,
  type PendingEmailChange,
} from '../../idp/email-change.ts';
import { securityMail, type EventOrigin } from '../../idp/security-mails.ts';
import { confirmCurrentPassword, ownIdentity } from './security.service.ts';

/**
 * The password and email forms of the security tab, over the embedded sign-in service's credentials. Both ask for
 * the current password; a wrong one counts towards the same lockout as a wrong password on the sign-in page.
 */

export interface CredentialDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
}

/** The policy's reason as the field error key the web translates (`tooWeak.keyboard`), the English text as message. */
function passwordPolicyError(problem: PasswordProblem): HttpError {
  const key = problem.reason === 'tooWeak' && problem.hint ? `tooWeak.${problem.hint}` : problem.reason;
  return new HttpError(422, 'VALIDATION_FAILED', `newPassword ${passwordProblemText(problem)}`, {
    newPassword: key,
  });
}

/**
 * Sets a new password: the current one must be right and the new one pass the policy. The person's other sessions
 * end (this one stays), and the address is told.
 */
export async function changeOwnPassword(
  deps: CredentialDeps,
  user: PortalUser,
  body: PasswordChange,
  origin: EventOrigin,
): Promise<void> {
  const identity = await ownIdentity(deps, user);
  await confirmCurrentPassword(deps, user, identity, body.currentPassword, 'currentPassword');
  // The current password was just confirmed: a new one equal to it changes nothing and is refused.
  const problem = await checkNewPassword(
    body.newPassword,
    identity,
    async (password) => password === body.currentPassword,
  );
  if (problem) throw passwordPolicyError(problem);
  await changePassword(deps.db, identity.id, body.newPassword, { keepSession: user.sessionId });
  await deps.mailer.send(securityMail('passwordChanged', identity, origin, deps.config.productName));
}

const toState = (pending: PendingEmailChange | null): EmailChangeState => ({
  pending: pending && { email: pending.email, expiresAt: pending.expiresAt.toISOString() },
});

export async function getEmailChange(deps: CredentialDeps, user: PortalUser): Promise<EmailChangeState> {
  const identity = await ownIdentity(deps, user);
  return toState(await pendingEmailChange(deps.db, identity.id));
}

/**
 * Asks to change the address: the current password must be right; the new address must be valid and another than
 * the current one. An address someone else signs in with answers as a new one (202, pending): its holder is told
 * instead of being sent a link, and the same limit counts both, so the form tells no one who has an account.
 */
export async function requestOwnEmailChange(
  deps: CredentialDeps,
  user: PortalUser,
  body: EmailChange,
  origin: EventOrigin,
): Promise<EmailChangeState> {
  const identity = await ownIdentity(deps, user);
  const newEmail = body.newEmail.trim();
  if (!isEmailAddress(newEmail)) throw invalidField('newEmail', 'email');
  await confirmCurrentPassword(deps, user, identity, body.currentPassword, 'currentPassword');
  if (newEmail.toLowerCase() === identity.email.toLowerCase()) throw invalidField('newEmail', 'sameAddress');
  // A mail goes to an address the person only claims, or to its holder: at most one request a minute, either way.
  await checkLimit(deps.db, 'email-change', identity.id);
  const holder = await findIdentityByEmail(deps.db, newEmail);
  const other = holder && holder.id !== identity.id ? holder : undefined;
  return toState(await requestEmailChange(deps, identity, newEmail, origin, other));
}

export async function cancelOwnEmailChange(deps: CredentialDeps, user: PortalUser): Promise<void> {
  const identity = await ownIdentity(deps, user);
  await cancelEmailChange(deps.db, identity.id);
}
