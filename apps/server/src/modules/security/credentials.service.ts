import {
  PASSWORD_CHANGE_ERRORS,
  isEmailAddress,
  type EmailChange,
  type EmailChangeState,
  type PasswordChange,
} from '@portal/contract';
import { checkPassword, passwordProblemText, type PasswordProblem } from '../../access/password-policy.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, invalidField } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { sentRecently } from '../../idp/action-tokens.ts';
import { BruteForceGuard } from '../../idp/brute-force.ts';
import { changePassword } from '../../idp/credentials.ts';
import {
  cancelEmailChange,
  emailInUse,
  pendingEmailChange,
  requestEmailChange,
  type PendingEmailChange,
} from '../../idp/email-change.ts';
import { findIdentityById, verifyPassword, type Identity } from '../../idp/identities.ts';
import { MAIL_INTERVAL_SECONDS } from '../../idp/mails.ts';
import { securityMail, type EventOrigin } from '../../idp/security-mails.ts';
import { ownIdentity } from './security.service.ts';

/**
 * The password and email forms of the security tab, over the embedded sign-in service's credentials. Both ask for
 * the current password; a wrong one counts towards the same lockout as a wrong password on the sign-in page.
 */

export interface CredentialDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
}

/** 429 with the lockout's wait in seconds, for the form to say how long. */
const lockedOut = (seconds: number) =>
  new HttpError(429, 'LOCKED', `Too many wrong passwords; try again in ${seconds} seconds`, {
    currentPassword: PASSWORD_CHANGE_ERRORS.locked,
    retryAfter: String(seconds),
  });

/**
 * Checks the current password under the sign-in page's brute-force guard, keyed on the identity: the attempt is
 * counted before the check and given back when it is right; while locked, even the right one is refused.
 */
async function checkCurrentPassword({ db, config }: CredentialDeps, identity: Identity, password: string) {
  const guard = new BruteForceGuard(db, config.idp.bruteForce);
  const identityKey = guard.identityKey(identity.email);
  const reserved = await guard.reserve([
    { key: identityKey, threshold: config.idp.bruteForce.maxFailuresPerIdentity },
  ]);
  if ('lockedFor' in reserved) throw lockedOut(reserved.lockedFor);
  const { valid } = await verifyPassword(db, identity.email, password);
  if (!valid) {
    const wait = guard.failed(reserved.reservation);
    if (wait > 0) throw lockedOut(wait);
    throw invalidField('currentPassword', PASSWORD_CHANGE_ERRORS.wrongPassword);
  }
  await guard.succeeded(reserved.reservation, identityKey);
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
  await checkCurrentPassword(deps, identity, body.currentPassword);
  const problem = await checkPassword(body.newPassword, identity);
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
 * Asks to change the address: the current password must be right; the new address must be valid, another than the
 * current one and not used by anyone else (said in general words, as Keycloak does, not whose it is).
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
  await checkCurrentPassword(deps, identity, body.currentPassword);
  if (newEmail.toLowerCase() === identity.email.toLowerCase()) throw invalidField('newEmail', 'sameAddress');
  if (await emailInUse(deps.db, newEmail, identity.id)) throw invalidField('newEmail', 'unavailable');
  // The link goes to an address the person only claims: at most one mail a minute.
  if (await sentRecently(deps.db, 'email-change', identity.id, MAIL_INTERVAL_SECONDS)) {
    throw new HttpError(429, 'TOO_MANY_MAILS', 'Wait a minute before asking for another link', {
      newEmail: 'tooManyMails',
    });
  }
  return toState(await requestEmailChange(deps, identity, newEmail, origin));
}

export async function cancelOwnEmailChange(deps: CredentialDeps, user: PortalUser): Promise<void> {
  const identity = await ownIdentity(deps, user);
  await cancelEmailChange(deps.db, identity.id);
}
