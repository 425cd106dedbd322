import Bowser from 'bowser';
import { SESSIONS_EXTERNAL, type SignInSession, type SignInSessions } from '@portal/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { endOtherSessions, endOwnSession, listSessions, type SessionRow } from '../../idp/sessions.ts';

/** Sessions live in the embedded sign-in service; an external Keycloak's account console keeps its own. */
function requireEmbedded(config: Config): void {
  if (!config.oidc.embedded) {
    throw new HttpError(
      409,
      SESSIONS_EXTERNAL,
      "Sessions are managed in the identity provider's account console",
    );
  }
}

/** Browser ("Firefox 133") and system ("Windows 10") named by a user agent, as far as it tells. */
export function describeUserAgent(userAgent: string | null): {
  browser: string | null;
  system: string | null;
} {
  if (!userAgent) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : null;
  const system = parsed.os.name ? [parsed.os.name, parsed.os.versionName].filter(Boolean).join(' ') : null;
  return { browser, system };
}

function toSession(row: SessionRow, currentId: string | undefined): SignInSession {
  return {
    id: row.uid,
    ...describeUserAgent(row.userAgent),
    clientAddress: row.clientAddress,
    startedAt: iso(row.startedAt),
    lastActiveAt: iso(row.lastActiveAt),
    current: row.uid === currentId,
  };
}

export async function getSessions(db: Db, config: Config, user: PortalUser): Promise<SignInSessions> {
  requireEmbedded(config);
  const { sessions, total } = await listSessions(db, user.subject);
  return { data: sessions.map((row) => toSession(row, user.sessionId)), meta: { total } };
}

/** Ends one of the person's own sessions; an unknown id or another person's session is not found. */
export async function endSession(db: Db, config: Config, user: PortalUser, sessionId: string) {
  requireEmbedded(config);
  if (!(await endOwnSession(db, user.subject, sessionId))) throw notFound('No such session');
}

export async function endOthers(db: Db, config: Config, user: PortalUser) {
  requireEmbedded(config);
  return { ended: await endOtherSessions(db, user.subject, user.sessionId) };
}
