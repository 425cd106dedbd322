import { TERMS_VERSION } from '@portal/contract';
import type { Queryable } from '../db/client.ts';
import { DEMO_ACCOUNTS, DEMO_USERS, type DemoLogin } from './users.ts';

/** Browsers and addresses the demo log's entries come from. */
const DEMO_CLIENTS = [
  {
    address: '203.0.113.24',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
  {
    address: '198.51.100.7',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0',
  },
  {
    address: '2001:db8:4a1::17',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  },
  {
    address: '192.0.2.88',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  },
];

/**
 * A few hundred log entries for Muster AG over the last ten months, so the log page looks alive: changes by the
 * owner and the admin, members' own answers, and support staff opening the account. Written once, with the
 * account's first seed (their client addresses tell a later run that they exist); deterministic, no randomness.
 */
export async function seedDemoLog(tx: Queryable, ids: Map<DemoLogin, string>) {
  const account = DEMO_ACCOUNTS.muster;
  // The marker: an entry from a demo client's address (documentation ranges; nothing else writes them).
  const marker = await tx.query(
    'select 1 from audit_log where account_uuid = $1 and client_address = $2 limit 1',
    [account, DEMO_CLIENTS[0]!.address],
  );
  if (marker.rows.length) return;
  const id = (login: DemoLogin) => ids.get(login)!;
  const user = (login: DemoLogin) => `user:${id(login)}`;
  type Entry = [DemoLogin, string, string, unknown, unknown];
  const kinds: ((n: number) => Entry)[] = [
    (n) => [
      'admin',
      'company.update',
      `account:${account}`,
      { phone: `+41 44 555 0${n % 90}` },
      { phone: `+41 44 555 0${(n + 1) % 90}` },
    ],
    (n) => [
      'owner',
      'account.update',
      `account:${account}`,
      { preferredLanguage: n % 2 ? 'de' : 'fr' },
      { preferredLanguage: n % 2 ? 'fr' : 'de' },
    ],
    (n) => [
      'admin',
      'member.role.change',
      user('employee'),
      { role: n % 2 ? 'ADMIN' : 'EMPLOYEE' },
      { role: n % 2 ? 'EMPLOYEE' : 'ADMIN' },
    ],
    () => ['agent', 'support.access', 'GET /api/accounts/v1/accounts/:id', null, null],
    (n) => [
      'admin',
      'member.invite',
      `user:${id('unverified')}`,
      null,
      { email: `new.colleague${n}@example.com`, role: 'EMPLOYEE' },
    ],
    () => [
      'employee',
      'invitation.accept',
      user('employee'),
      { invitationStatus: 'PENDING' },
      { invitationStatus: 'ACCEPTED' },
    ],
    (n) => [
      'coach',
      'company.update',
      `account:${account}`,
      { street: `Bahnhofstrasse ${n % 40}` },
      { street: `Bahnhofstrasse ${(n % 40) + 1}` },
    ],
    () => ['owner', 'member.role.change', user('coach'), { role: 'EMPLOYEE' }, { role: 'DC' }],
    (n) => [
      'admin',
      'invitation.resend',
      `user:${id('unverified')}`,
      null,
      { email: DEMO_USERS.unverified.email, resent: n % 3 },
    ],
    () => ['owner', 'account.terms.accept', 'terms:agb', null, { kind: 'agb', version: TERMS_VERSION }],
  ];
  const count = 320;
  for (let n = 0; n < count; n += 1) {
    const [login, action, target, before, after] = kinds[(n * 7 + (n >> 3)) % kinds.length]!(n);
    const client = DEMO_CLIENTS[(n * 3 + (login === 'agent' ? 1 : 0)) % DEMO_CLIENTS.length]!;
    // Spread over 300 days, later entries closer together.
    const minutesAgo = Math.round(((count - n) / count) ** 1.3 * 300 * 24 * 60) + (n % 11) * 37;
    await tx.query(
      `insert into audit_log (account_uuid, actor_uuid, client_address, user_agent, action, target, before, after, created_at)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, now() - make_interval(mins => $9::int))`,
      [
        account,
        id(login),
        client.address,
        client.userAgent,
        action,
        target,
        before === null ? null : JSON.stringify(before),
        after === null ? null : JSON.stringify(after),
        minutesAgo,
      ],
    );
  }
}
