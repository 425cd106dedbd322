import type { Queryable } from '../db/client.ts';
import { DEMO_ACCOUNTS, DEMO_USERS, type DemoLogin } from './users.ts';

/**
 * Notifications of the demo users, read and unread, so the inbox and its badge look alive: answers to Muster AG's
 * invitations for its owner and admins, a role change, Beispiel GmbH's planned deletion for its members, and the
 * pending invitation to Beispiel GmbH (personal). Written once, with the first seed (the owner's first
 * notification tells a later run that they exist).
 */
export async function seedDemoNotifications(tx: Queryable, ids: Map<DemoLogin, string>) {
  const id = (login: DemoLogin) => ids.get(login)!;
  const marker = await tx.query('select 1 from notifications where user_uuid = $1 limit 1', [id('owner')]);
  if (marker.rows.length) return;
  const muster = DEMO_ACCOUNTS.muster;
  const beispiel = DEMO_ACCOUNTS.beispiel;
  const deletion = await tx.query<{ available_until: Date | null }>(
    'select available_until from accounts where uuid = $1',
    [beispiel],
  );
  const availableUntil = (deletion.rows[0]?.available_until ?? new Date()).toISOString();
  const olivia = DEMO_USERS.owner.name;
  const isabelle = DEMO_USERS.inhaber.name;
  // [recipient, account (null: personal), type, parameters, hours ago, read]
  const items: [DemoLogin, string | null, string, Record<string, unknown>, number, boolean][] = [
    ['owner', muster, 'invitation.declined', { email: 'jana.jung@example.com', role: 'EMPLOYEE' }, 5, false],
    [
      'owner',
      beispiel,
      'account.deletion_scheduled',
      { accountName: 'Beispiel GmbH', availableUntil, scheduledBy: isabelle },
      20,
      false,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.unverified.email, name: DEMO_USERS.unverified.name, role: 'EMPLOYEE' },
      50,
      false,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.coach.email, name: DEMO_USERS.coach.name, role: 'DC' },
      240,
      true,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.employee.email, name: DEMO_USERS.employee.name, role: 'EMPLOYEE' },
      600,
      true,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.admin.email, name: DEMO_USERS.admin.name, role: 'EMPLOYEE' },
      900,
      true,
    ],
    ['admin', muster, 'invitation.declined', { email: 'jana.jung@example.com', role: 'EMPLOYEE' }, 5, false],
    [
      'admin',
      muster,
      'member.role_changed',
      { accountName: 'Muster AG', role: 'ADMIN', previousRole: 'EMPLOYEE', changedBy: olivia },
      880,
      true,
    ],
    ['coach', muster, 'invitation.declined', { email: 'jana.jung@example.com', role: 'EMPLOYEE' }, 5, true],
    [
      'owner',
      null,
      'member.removed',
      { accountName: 'Treuhand Alt AG', removedBy: 'Karl Keller' },
      100,
      false,
    ],
    [
      'employee',
      null,
      'invitation.received',
      { accountName: 'Beispiel GmbH', invitedBy: isabelle, role: 'EMPLOYEE' },
      30,
      false,
    ],
    [
      'inhaber',
      beispiel,
      'account.deletion_scheduled',
      { accountName: 'Beispiel GmbH', availableUntil, scheduledBy: isabelle },
      20,
      true,
    ],
    [
      'coach',
      beispiel,
      'account.deletion_scheduled',
      { accountName: 'Beispiel GmbH', availableUntil, scheduledBy: isabelle },
      20,
      false,
    ],
  ];
  // Fixed ids in the order listed (the owner's first one is …0006-…0001), so docs and tests can link to them;
  // written oldest first, so the creation order (the inbox's tiebreak and the live stream's ids) follows the times.
  const numbered = items.map((item, index) => ({
    item,
    uuid: `6f1c2b1e-0006-4000-8000-${String(index + 1).padStart(12, '0')}`,
  }));
  for (const { item, uuid } of numbered.sort((a, b) => b.item[4] - a.item[4])) {
    const [login, account, type, params, hoursAgo, read] = item;
    await tx.query(
      `insert into notifications (uuid, account_uuid, user_uuid, type, params, created_at, read_at)
       values ($1, $2, $3, $4, $5, now() - make_interval(hours => $6),
               case when $7 then now() - make_interval(hours => $6) + interval '1 hour' end)`,
      [uuid, account, id(login), type, JSON.stringify(params), hoursAgo, read],
    );
  }
}
