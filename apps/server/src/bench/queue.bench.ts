/**
 * The support agents' queue at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): 50,000 tickets (BENCH_QUEUE_TICKETS to change it) of 5,000 accounts over a year, generated here with
 * generate_series, each with one to six messages (some of them agents' internal notes): the newest 3,000 and every
 * 200th older one still active (open, or waiting for the customer), the rest solved or closed; every category and
 * severity (mostly normal, few critical); ten agents, a third of the active tickets nobody's. Measures, through the
 * real app (authentication, the staff check, SQL with the waiting order, the message counts and the total,
 * serialisation), what the queue page asks for as an agent: the first page, the next pages (page numbers, as its
 * arrows go), each status, severity, category, assignee and waiting-time filter: p50 and p99 over 200 requests each
 * (target p99 ≤ 20 ms).
 */
import { SUPPORT_CATEGORIES } from '@portal/contract';
import { DEMO_USERS } from '../demo/users.ts';
import { TestApi } from '../test/api.ts';
import { settle, timed } from './logs.bench.ts';

const TICKETS = Number(process.env.BENCH_QUEUE_TICKETS ?? 50_000);
/** Tickets per account. */
const PER_ACCOUNT = 10;
/** The newest tickets that are still active; older ones only every 200th. */
const RECENT = Math.min(3_000, Math.floor(TICKETS * 0.06));

/** The generated accounts, numbered from their names (`Kunde n AG`), with their owners (`bench-n`). */
const BENCH_ACCOUNTS = `(select a.uuid, u.uuid as owner, substr(a.name, 7, length(a.name) - 9)::int as n
    from accounts a join users u on u.subject = 'bench-' || substr(a.name, 7, length(a.name) - 9)
   where a.name ~ '^Kunde [0-9]+ AG$')`;
/** The ten agents, numbered from 0: the demo's agent and support manager, then the generated ones. */
const BENCH_AGENTS = `(select uuid, row_number() over (order by subject) - 1 as i from users
   where subject like 'bench-agent-%' or subject in ('${DEMO_USERS.agent.id}', '${DEMO_USERS.billing.id}'))`;

export interface QueueFigures {
  tickets: number;
  active: number;
  messages: number;
  pages: Record<string, { p50: number; p99: number }>;
}

export async function measureQueue(): Promise<QueueFigures> {
  const api = new TestApi('postgres');
  await api.start();
  try {
    const accounts = Math.ceil(TICKETS / PER_ACCOUNT);
    // One customer per account (its owner, who writes its tickets), eight agents besides the demo's two.
    await api.db.query(
      `insert into users (uuid, subject, email, name, email_verified)
       select gen_random_uuid(), 'bench-' || g, 'person' || g || '@bench.example', 'Person ' || g, true
         from generate_series(1, ${accounts}) g`,
    );
    await api.db.query(
      `insert into users (uuid, subject, email, name, email_verified, user_role)
       select gen_random_uuid(), 'bench-agent-' || g, 'agent' || g || '@bench.example', 'Agent ' || g, true,
              'SUPPORT_AGENT'
         from generate_series(1, 8) g`,
    );
    await api.db.query(
      `insert into accounts (uuid, name, country, created_at)
       select gen_random_uuid(), 'Kunde ' || g || ' AG', 'CH', now() - interval '2 years'
         from generate_series(1, ${accounts}) g`,
    );
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role)
       select uuid, owner, 'OWNER' from ${BENCH_ACCOUNTS} a`,
    );
    // Ticket g, one every 10 minutes up to now (g = n newest), of account 1 + g % accounts. The newest RECENT and
    // every 200th are active: open (two in three still waiting for an agent since their last customer message)
    // or waiting for the customer; the others solved (one in five) or closed. A third of the active ones are
    // nobody's, the rest spread over the ten agents; every solved or closed one had an agent.
    await api.db.query(
      `insert into support_tickets (account_uuid, created_by, category, severity, subject, status, assignee_uuid,
         created_at, updated_at, awaiting_agent_since, solved_at)
       select a.uuid, a.owner,
              (array[${SUPPORT_CATEGORIES.map((c) => `'${c}'`).join(', ')}, 'TECHNICAL', 'BILLING'])[1 + g % 7],
              (array['NORMAL', 'LOW', 'NORMAL', 'HIGH', 'NORMAL', 'LOW', 'NORMAL', 'HIGH', 'NORMAL', 'NORMAL',
                     'LOW', 'NORMAL', 'HIGH', 'NORMAL', 'LOW', 'NORMAL', 'HIGH', 'NORMAL', 'NORMAL', 'CRITICAL'])
                [1 + g % 20],
              'Bench ' || g, s.status,
              case when s.status in ('SOLVED', 'CLOSED') or g % 3 <> 0 then ag.uuid end,
              c.at, c.at + interval '1 hour' * (1 + g % 48),
              case when s.status = 'OPEN' and (g / 5) % 3 <> 1 then c.at + interval '1 hour' * (g % 48) end,
              case when s.status in ('SOLVED', 'CLOSED') then c.at + interval '1 hour' * (1 + g % 48) end
         from generate_series(1, $1::int) g
              cross join lateral (select now() - ($1::int - g) * interval '10 minutes' as at) c
              cross join lateral (select case
                when g > $1::int - ${RECENT} or g % 200 = 0 then
                  case when g % 5 < 3 then 'OPEN' else 'WAITING_FOR_CUSTOMER' end
                when g % 5 = 0 then 'SOLVED' else 'CLOSED' end as status) s
              join ${BENCH_ACCOUNTS} a on a.n = 1 + g % ${accounts}
              join ${BENCH_AGENTS} ag on ag.i = (g / 3) % 10
        order by g`,
      [TICKETS],
    );
    // One to six messages a ticket, alternately the customer's and an agent's (the agents' second an internal
    // note), an hour apart from the ticket's creation; the customer's first.
    await api.db.query(
      `insert into support_messages (ticket_uuid, author_uuid, author_kind, internal, body, created_at)
       select t.uuid, case when m % 2 = 0 then t.created_by else coalesce(t.assignee_uuid, ag.uuid) end,
              case when m % 2 = 0 then 'CUSTOMER' else 'AGENT' end, m = 3,
              'Nachricht ' || m || ' zu ' || t.subject, t.created_at + interval '1 hour' * m
         from support_tickets t join ${BENCH_AGENTS} ag on ag.i = 0
              cross join lateral generate_series(0, (t.number % 6)::int) m
        where t.subject like 'Bench %'
        order by t.number, m`,
    );
    await settle(api, 'vacuum analyze');
    const { rows } = await api.db.query<{ active: string; messages: string }>(
      `select (select count(*) from support_tickets where status in ('OPEN', 'WAITING_FOR_CUSTOMER')) as active,
              (select count(*) from support_messages) as messages`,
    );
    const { rows: agents } = await api.db.query<{ uuid: string }>(
      `select uuid from users where subject = 'bench-agent-3'`,
    );
    const base = '/api/support/v1/agent/tickets';
    const queue = (query: string) => `${base}?${query}`;
    const as = 'agent';
    return {
      tickets: TICKETS,
      active: Number(rows[0]!.active),
      messages: Number(rows[0]!.messages),
      pages: {
        'first page (active)': await timed(api, base, as),
        'page 2': await timed(api, queue('page=2'), as),
        'page 20': await timed(api, queue('page=20'), as),
        'first page, 100 a page': await timed(api, queue('pageSize=100'), as),
        'status: open': await timed(api, queue('status=OPEN'), as),
        'status: waiting for customer': await timed(api, queue('status=WAITING_FOR_CUSTOMER'), as),
        'status: closed': await timed(api, queue('status=CLOSED'), as),
        'status: closed, page 20': await timed(api, queue('status=CLOSED&page=20'), as),
        'status: all': await timed(api, queue('status=ALL'), as),
        'severity: critical': await timed(api, queue('severity=CRITICAL'), as),
        'category: billing': await timed(api, queue('category=BILLING'), as),
        'assignee: mine': await timed(api, queue('assignee=mine'), as),
        'assignee: unassigned': await timed(api, queue('assignee=unassigned'), as),
        'assignee: another agent': await timed(api, queue(`assignee=${agents[0]!.uuid}`), as),
        'waiting ≥ 24 h': await timed(api, queue('waitingHours=24'), as),
        'critical + unassigned, all': await timed(
          api,
          queue('status=ALL&severity=CRITICAL&assignee=unassigned'),
          as,
        ),
        'first page, again': await timed(api, base, as),
        'GET /users/v1/me, for comparison': await timed(api, '/api/users/v1/me', as),
      },
    };
  } finally {
    await api.stop();
  }
}

export function printQueueFigures(figures: QueueFigures): void {
  const count = (n: number) => n.toLocaleString('en');
  console.log(
    `  support queue on PostgreSQL, ${count(figures.tickets)} tickets (${count(figures.active)} active), ` +
      `${count(figures.messages)} messages (target p99 ≤ 20 ms):`,
  );
  for (const [name, { p50, p99 }] of Object.entries(figures.pages)) {
    console.log(`    ${name.padEnd(34)} p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  }
}
