import type { SignInSession, SignInSessions } from '@portal/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { describeUserAgent } from '../../http/user-agent.ts';
import { requireEmbedded } from './security.service.ts';
import { endOtherSessions, endOwnSession, listSessions, type SessionRow } from '../../idp/sessions.ts';

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
