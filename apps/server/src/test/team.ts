import crypto from 'node:crypto';
import { TERMS_VERSION } from '@portal/contract';
import { DEMO_USERS } from '../demo/users.ts';
import type { DemoLogin, TestApi } from './api.ts';

/**
 * A fresh account ("Team <8 hex>") with these demo logins as accepted members at the given roles, its terms accepted
 * by its owner, so tests act on an account of their own; its uuid and name.
 */
export async function createTeam(api: TestApi, members: Partial<Record<DemoLogin, string>>) {
  const uuid = crypto.randomUUID();
  const name = `Team ${uuid.slice(0, 8)}`;
  await api.db.query(`insert into accounts (uuid, name, country) values ($1, $2, 'CH')`, [uuid, name]);
  for (const [login, role] of Object.entries(members)) {
    const user = DEMO_USERS[login as DemoLogin].id;
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, accepted_at)
       values ($1, $2, $3, 'ACCEPTED', now())`,
      [uuid, user, role],
    );
    if (role === 'OWNER') {
      for (const kind of ['agb', 'privacy']) {
        await api.db.query(
          'insert into terms_acceptances (account_uuid, kind, version, accepted_by) values ($1, $2, $3, $4)',
          [uuid, kind, TERMS_VERSION, user],
        );
      }
    }
  }
  return { uuid, name };
}
