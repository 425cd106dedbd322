/**
 * The notifications inbox at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): three people of one account with 100,000 notifications each (BENCH_INBOX_NOTIFICATIONS to change it),
 * generated here with generate_series over a year: six in ten of the account, three in ten of another account of
 * theirs, one in ten personal (no account); every type; about one in ten unread, and the newest 200; two in five
 * archived. Measures, through the real app (authentication, access check, SQL with the unread-first order and the
 * total, serialisation), what the inbox page asks for as one of them: the first page, the next pages (page numbers,
 * as its arrows go), the unread-only switch, a type, the archived view, and the badge's unread count: p50 and p99
 * over 200 requests each (target p99 ≤ 20 ms).
 */
import { NOTIFICATION_TYPES } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../demo/users.ts';
import { TestApi } from '../test/api.ts';
import { settle, timed } from './logs.bench.ts';

const NOTIFICATIONS = Number(process.env.BENCH_INBOX_NOTIFICATIONS ?? 100_000);
const MUSTER = DEMO_ACCOUNTS.muster;
/** The people whose inboxes are filled: members of Muster AG; the owner, also in Beispiel GmbH, is measured. */
const PEOPLE = [DEMO_USERS.owner.id, DEMO_USERS.admin.id, DEMO_USERS.employee.id];

export interface InboxFigures {
  notifications: number;
  unread: number;
  archived: number;
  pages: Record<string, { p50: number; p99: number }>;
}

export async function measureInbox(): Promise<InboxFigures> {
  const api = new TestApi('postgres');
  await api.start();
  try {
    // Notification g of each person, one every 5 minutes up to now (g = n newest), its account by g % 10: more
    // invoices, answers and announcements than invitations; read unless (g / 3) % 10 = 3 or among the newest 200;
    // archived (a day after it came) when (g / 7) % 5 is 1 or 2. Divided, so that the mixes do not go together.
    const types = `array[${NOTIFICATION_TYPES.map((type) => `'${type}'`).join(', ')},
      'invoice.issued', 'invoice.issued', 'ticket.answered', 'announcement.published', 'invoice.overdue']`;
    await api.db.query(
      `insert into notifications (account_uuid, user_uuid, type, params, created_at, read_at, archived_at)
       select case when g % 10 < 6 then $1::uuid when g % 10 < 9 then $2::uuid end, u.uuid,
              (${types})[1 + (g / 10) % ${NOTIFICATION_TYPES.length + 5}],
              jsonb_build_object('number', 'B-' || g, 'subject', 'Bench ' || g),
              c.at,
              case when (g / 3) % 10 = 3 or g > $3::int - 200 then null else c.at + interval '2 hours' end,
              case when (g / 7) % 5 in (1, 2) and g <= $3::int - 200 then c.at + interval '1 day' end
         from users u cross join generate_series(1, $3::int) g
              cross join lateral (select now() - ($3::int - g) * interval '5 minutes' as at) c
        where u.subject = any($4::text[])
        order by g, u.uuid`,
      [MUSTER, DEMO_ACCOUNTS.beispiel, NOTIFICATIONS, PEOPLE],
    );
    await settle(api, 'vacuum analyze notifications');
    const { rows } = await api.db.query<{ unread: string; archived: string }>(
      `select count(*) filter (where n.read_at is null and n.archived_at is null) as unread,
              count(*) filter (where n.archived_at is not null) as archived
         from notifications n join users u on u.uuid = n.user_uuid
        where u.subject = $1 and (n.account_uuid = $2 or n.account_uuid is null)`,
      [DEMO_USERS.owner.id, MUSTER],
    );
    const base = `/api/accounts/${MUSTER}/notifications/v1`;
    const list = `${base}/notifications`;
    return {
      notifications: NOTIFICATIONS,
      unread: Number(rows[0]!.unread),
      archived: Number(rows[0]!.archived),
      pages: {
        'first page': await timed(api, list, 'owner'),
        'page 2': await timed(api, `${list}?page=2`, 'owner'),
        'page 20': await timed(api, `${list}?page=20`, 'owner'),
        'first page, 100 a page': await timed(api, `${list}?pageSize=100`, 'owner'),
        'unread only': await timed(api, `${list}?unread=true`, 'owner'),
        'unread only, page 20': await timed(api, `${list}?unread=true&page=20`, 'owner'),
        'type: invoice issued': await timed(api, `${list}?type=invoice.issued`, 'owner'),
        'type: member removed (rare)': await timed(api, `${list}?type=member.removed`, 'owner'),
        'unread + type': await timed(api, `${list}?unread=true&type=ticket.answered`, 'owner'),
        'archived view': await timed(api, `${list}?archived=true`, 'owner'),
        'archived view, page 20': await timed(api, `${list}?archived=true&page=20`, 'owner'),
        'unread count (the badge)': await timed(api, `${base}/unread-count`, 'owner'),
        'first page, again': await timed(api, list, 'owner'),
        'GET /users/v1/me, for comparison': await timed(api, '/api/users/v1/me', 'owner'),
      },
    };
  } finally {
    await api.stop();
  }
}

export function printInboxFigures(figures: InboxFigures): void {
  const count = (n: number) => n.toLocaleString('en');
  console.log(
    `  notifications inbox on PostgreSQL, ${count(figures.notifications)} notifications per person, 3 people ` +
      `(the measured one's inbox in the account: ${count(figures.unread)} unread, ${count(figures.archived)} archived; target p99 ≤ 20 ms):`,
  );
  for (const [name, { p50, p99 }] of Object.entries(figures.pages)) {
    console.log(`    ${name.padEnd(34)} p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  }
}
