import crypto from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { DEMO_ACCOUNTS, type DemoLogin } from './users.ts';

/** A demo ticket: who opened it, its state, and its conversation (minutes ago, oldest first). */
interface DemoTicket {
  uuid: string;
  createdBy: DemoLogin;
  category: string;
  severity: string;
  subject: string;
  status: 'OPEN' | 'WAITING_FOR_CUSTOMER';
  consent: boolean;
  messages: { by: DemoLogin; agent?: boolean; minutesAgo: number; body: string; file?: [string, string] }[];
}

const DEMO_TICKETS: DemoTicket[] = [
  {
    uuid: '6f1c2b1e-0005-4000-8000-000000000001',
    createdBy: 'employee',
    category: 'BILLING',
    severity: 'NORMAL',
    subject: 'Rechnung März doppelt belastet',
    status: 'WAITING_FOR_CUSTOMER',
    consent: false,
    messages: [
      {
        by: 'employee',
        minutesAgo: 3 * 24 * 60,
        body: "Guten Tag\n\nUnsere Kreditkarte wurde für die Rechnung vom März zweimal mit CHF 1'234.50 belastet. Können Sie eine Belastung zurückerstatten?\n\nFreundliche Grüsse\nEmma Employee",
      },
      {
        by: 'agent',
        agent: true,
        minutesAgo: 2 * 24 * 60,
        body: 'Guten Tag Frau Employee\n\nDanke für Ihre Meldung. Damit wir die Zahlungen zuordnen können: Senden Sie uns bitte die letzten vier Ziffern der Karte und das Datum der zweiten Belastung.\n\nFreundliche Grüsse\nAaron Agent',
      },
    ],
  },
  {
    uuid: '6f1c2b1e-0005-4000-8000-000000000002',
    createdBy: 'admin',
    category: 'TECHNICAL',
    severity: 'HIGH',
    subject: 'CSV-Export des Protokolls bricht ab',
    status: 'OPEN',
    consent: true,
    messages: [
      {
        by: 'admin',
        minutesAgo: 26 * 60,
        body: 'Der CSV-Export des Protokolls bricht nach etwa einer Minute ab. Die Browser-Konsole zeigt den angehängten Fehler.',
        file: ['konsole.txt', 'GET /api/accounts/…/logs/v1/entries.csv net::ERR_HTTP2_PROTOCOL_ERROR 200\n'],
      },
      {
        by: 'agent',
        agent: true,
        minutesAgo: 20 * 60,
        body: 'Danke, wir können den Abbruch nachstellen und prüfen ihn. Sie haben uns den Zugriff auf Ihr Konto erlaubt; wir melden uns, sobald wir mehr wissen.',
      },
      {
        by: 'admin',
        minutesAgo: 90,
        body: 'Gibt es schon Neuigkeiten? Wir brauchen den Export für die Revision am Freitag.',
      },
    ],
  },
];

/** Two tickets of Muster AG with a short conversation with the demo agent; written once (fixed uuids). */
export async function seedDemoTickets(tx: Queryable, ids: Map<DemoLogin, string>) {
  const account = DEMO_ACCOUNTS.muster;
  for (const ticket of DEMO_TICKETS) {
    const exists = await tx.query('select 1 from support_tickets where uuid = $1', [ticket.uuid]);
    if (exists.rows.length) continue;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const first = ticket.messages[0]!;
    const last = ticket.messages.at(-1)!;
    const inserted = await tx.query<{ number: string }>(
      `insert into support_tickets (uuid, account_uuid, created_by, category, severity, subject, status,
                                    staff_access_consent, assignee_uuid, created_at, updated_at, awaiting_agent_since)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning number::text`,
      [
        ticket.uuid,
        account,
        ids.get(ticket.createdBy),
        ticket.category,
        ticket.severity,
        ticket.subject,
        ticket.status,
        ticket.consent,
        ids.get('agent'),
        at(first.minutesAgo),
        at(last.minutesAgo),
        last.agent ? null : at(last.minutesAgo),
      ],
    );
    for (const message of ticket.messages) {
      const { rows } = await tx.query<{ id: string }>(
        `insert into support_messages (ticket_uuid, author_uuid, author_kind, body, created_at)
         values ($1, $2, $3, $4, $5) returning id`,
        [
          ticket.uuid,
          ids.get(message.by),
          message.agent ? 'AGENT' : 'CUSTOMER',
          message.body,
          at(message.minutesAgo),
        ],
      );
      if (!message.file) continue;
      const [fileName, text] = message.file;
      const content = Buffer.from(text, 'utf8');
      const fileUuid = crypto.randomUUID();
      await tx.query(
        `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content, created_by, created_at)
         values ($1, $2, 'support-attachment', 'text/plain', $3, $4, $5, $6, $7, $8)`,
        [
          fileUuid,
          account,
          content.length,
          crypto.createHash('sha256').update(content).digest('hex'),
          fileName,
          content,
          ids.get(message.by),
          at(message.minutesAgo),
        ],
      );
      await tx.query(
        'insert into support_attachments (file_uuid, message_id, ticket_uuid) values ($1, $2, $3)',
        [fileUuid, rows[0]!.id, ticket.uuid],
      );
    }
    // The creator heard of the agent's last answer: unread while the ticket waits for them.
    const answer = ticket.messages.findLast((message) => message.agent);
    if (answer) {
      const waiting = ticket.status === 'WAITING_FOR_CUSTOMER';
      const params = {
        ticketUuid: ticket.uuid,
        ticketNumber: Number(inserted.rows[0]!.number),
        subject: ticket.subject,
      };
      await tx.query(
        `insert into notifications (account_uuid, user_uuid, type, params, created_at, read_at)
         values ($1, $2, $3, $4, $5, case when $6 then null else $5::timestamptz end)`,
        [
          account,
          ids.get(ticket.createdBy),
          waiting ? 'ticket.waiting_for_customer' : 'ticket.answered',
          JSON.stringify(params),
          at(answer.minutesAgo),
          waiting,
        ],
      );
    }
  }
}
