import type { Db } from '../db/client.ts';
import { endIdentitySessions } from './adapter.ts';
import { setPassword } from './identities.ts';

/**
 * Credentials changed: the new password is set and, in the same transaction, everything the old one opened ends —
 * the SSO sessions with their grants and refresh tokens, and every outstanding reset link. A password reset ends
 * every session; a change made while signed in (`keepSession`, the session it was made in) ends all others. Access
 * tokens issued before stay valid until they expire (at most the access-token lifetime), as the API checks them
 * without asking the sign-in service.
 */
export async function changePassword(
  db: Db,
  identityId: string,
  password: string,
  options: { keepSession?: string } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    await setPassword(tx, identityId, password);
    await endIdentitySessions(tx, identityId, options.keepSession ? { except: options.keepSession } : {});
  });
}
