import type { Language, LogPerson, LogSubject } from '@portal/contract';
import {
  LOG_ACTION_TEXTS,
  LOG_AREA_WORDS,
  LOG_SUBJECT_WORDS,
  logTextContains,
} from '@portal/contract/log-texts';
import type { Queryable } from '../../db/client.ts';
import type { SqlParams } from '../../db/paging.ts';

// What an audit entry acted on, for people (decision 211): the raw target the areas write (`invoice:<uuid>`,
// `terms:agb`, `GET /api/accounts/:accountUuid/billing/v1/invoices`) becomes a subject — its kind, the id its page
// takes, its number and its name — resolved when the log is read (names change, the log does not), a page or an
// export batch at a time with one query per kind. The free-text search matches the same subjects in the reader's
// language, in SQL, so that what the table shows is what the search finds.

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Target prefixes (`invoice:<uuid>`) → the subject's kind, for the targets that name a row by its uuid. */
const UUID_KINDS: Record<string, string> = {
  user: 'person',
  member: 'person',
  account: 'account',
  invoice: 'invoice',
  ticket: 'ticket',
  invitation: 'invitation',
  transfer: 'transfer',
  file: 'file',
  subscription: 'subscription',
  cloud_connection: 'cloud',
  migration: 'migration',
  'payment-import': 'paymentImport',
  'bank-payment': 'bankPayment',
};

/** A request line (`support.access`): the API area is the segment before `/v1/`. */
const REQUEST_LINE = /^(?:GET|HEAD|POST|PUT|PATCH|DELETE) \/api\/(?:accounts\/:\w+\/)?([a-z-]+)\/v1(?:\/|$)/;

/** A subject before its lookup: the kind and id a target names. */
function parseTarget(target: string | null): LogSubject {
  const none = { id: null, ref: null, name: null };
  if (!target) return { kind: 'other', ...none, name: null };
  const colon = target.indexOf(':');
  const prefix = colon > 0 ? target.slice(0, colon) : target;
  const rest = colon > 0 ? target.slice(colon + 1) : '';
  const kind = UUID_KINDS[prefix];
  if (kind && UUID.test(rest)) return { kind, ...none, id: rest.toLowerCase() };
  if (prefix === 'terms' && /^[a-z]+$/.test(rest)) return { kind: 'terms', ...none, id: rest };
  if (prefix === 'passkey' && rest) return { kind: 'passkey', ...none, id: rest };
  if (target === 'shop') return { kind: 'shop', ...none };
  // What support staff opened: the members list and one member (read by the members area), or a request line.
  if (target === 'GET members') return { kind: 'area', ...none, id: 'members' };
  const member = /^GET member:(.+)$/.exec(target);
  if (member && UUID.test(member[1]!)) return { kind: 'person', ...none, id: member[1]!.toLowerCase() };
  const area = REQUEST_LINE.exec(target)?.[1];
  if (area && Object.hasOwn(LOG_AREA_WORDS, area)) return { kind: 'area', ...none, id: area };
  return { kind: 'other', ...none, name: target };
}

interface Named {
  id: string;
  ref: string | null;
  name: string | null;
  kind?: string;
}

/** The lookups of the kinds that have a row of their own, each for one account and a list of ids. */
const LOOKUPS: Record<string, string> = {
  account: `select uuid::text as id, null as ref, name from accounts where uuid = any($2::uuid[]) and uuid = $1`,
  invoice: `select uuid::text as id, number as ref, null as name from invoices
             where account_uuid = $1 and uuid = any($2::uuid[])`,
  ticket: `select uuid::text as id, number::text as ref, subject as name from support_tickets
            where account_uuid = $1 and uuid = any($2::uuid[])`,
  invitation: `select uuid::text as id, null as ref, email as name from invitations
                where account_uuid = $1 and uuid = any($2::uuid[])`,
  transfer: `select o.uuid::text as id, null as ref, coalesce(nullif(u.name, ''), u.email) as name
               from ownership_transfers o join users u on u.uuid = o.to_user_uuid
              where o.account_uuid = $1 and o.uuid = any($2::uuid[])`,
  file: `select uuid::text as id, null as ref, file_name as name,
                case when purpose = 'company-logo' then 'logo' else 'file' end as kind
           from files where account_uuid = $1 and uuid = any($2::uuid[])`,
  cloud: `select uuid::text as id, null as ref, coalesce(cloud_name, cloud_email) as name from cloud_connections
           where account_uuid = $1 and uuid = any($2::uuid[])`,
};

/**
 * The subjects of one account's entries, looked up per page or export batch and kept (an export meets the same
 * few invoices and tickets again and again). The person a target names comes from the caller (`targetUser`).
 */
export class LogSubjects {
  private readonly known = new Map<string, Named | null>();

  constructor(
    private readonly q: Queryable,
    private readonly accountUuid: string,
  ) {}

  /** Looks up the rows the targets name that were not seen before: one query per kind. */
  async load(targets: (string | null)[]): Promise<void> {
    const missing = new Map<string, Set<string>>();
    for (const target of targets) {
      const subject = parseTarget(target);
      if (!subject.id || !LOOKUPS[subject.kind] || this.known.has(`${subject.kind}:${subject.id}`)) continue;
      const ids = missing.get(subject.kind) ?? new Set<string>();
      missing.set(subject.kind, ids.add(subject.id));
    }
    for (const [kind, ids] of missing) {
      const { rows } = await this.q.query<Named>(LOOKUPS[kind]!, [this.accountUuid, [...ids]]);
      for (const id of ids) this.known.set(`${kind}:${id}`, null);
      for (const row of rows) this.known.set(`${kind}:${row.id}`, row);
    }
  }

  /** The subject of `target`, with what the lookup found (a row that is gone keeps its kind, without a name). */
  of(target: string | null, targetUser: LogPerson | null): LogSubject {
    const subject = parseTarget(target);
    if (subject.kind === 'person') {
      const person = targetUser ?? null;
      return { ...subject, name: person ? person.name || person.email || null : null };
    }
    const found = subject.id ? this.known.get(`${subject.kind}:${subject.id}`) : undefined;
    if (!found) return subject;
    return { kind: found.kind ?? subject.kind, id: subject.id, ref: found.ref, name: found.name };
  }
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The free text's conditions on action and target, as the reader sees them in `language` (decision 211): the
 * actions whose text contains it; the targets whose word contains it (every invoice for "Rechnung", the terms for
 * "Geschäftsbedingungen", support's opening of the members list for "Benutzerverwaltung"); the rows whose number or
 * name contains it (the invoice "2026-0012", the ticket's subject, the invited address, the account's name). `p` is
 * the ILIKE pattern's placeholder; the person's name and address are matched by the caller.
 */
export function subjectSearch(query: string, language: Language, params: SqlParams, p: string): string[] {
  const q = query.trim();
  const conditions: string[] = [];
  const actions = Object.entries(LOG_ACTION_TEXTS)
    .filter(([, texts]) => logTextContains(texts[language], q))
    .map(([action]) => action);
  if (actions.length) conditions.push(`a.action = any(${params.add(actions)}::text[])`);

  const words = LOG_SUBJECT_WORDS as Record<string, Record<Language, string>>;
  const matches = (key: string) => logTextContains(words[key]![language], q);
  const patterns: string[] = [];
  const prefixes: Record<string, string[]> = {
    invoice: ['invoice:'],
    ticket: ['ticket:'],
    invitation: ['invitation:'],
    transfer: ['transfer:'],
    logo: ['file:'],
    file: ['file:'],
    shop: ['shop'],
    subscription: ['subscription:'],
    cloud: ['cloud_connection:'],
    migration: ['migration:'],
    passkey: ['passkey:'],
    paymentImport: ['payment-import:'],
    bankPayment: ['bank-payment:'],
  };
  for (const [kind, starts] of Object.entries(prefixes)) {
    if (matches(kind)) patterns.push(...starts.map((start) => `${escapeLike(start)}%`));
  }
  for (const terms of ['agb', 'privacy']) if (matches(terms)) patterns.push(`terms:${terms}`);
  for (const [area, texts] of Object.entries(LOG_AREA_WORDS)) {
    if (!logTextContains(texts[language], q)) continue;
    patterns.push(`% /api/${escapeLike(area)}/v1%`, `% /api/accounts/:%/${escapeLike(area)}/v1%`);
    if (area === 'members') patterns.push('GET members');
  }
  if (matches('thisAccount')) patterns.push('account:%');
  if (patterns.length) conditions.push(`a.target like any(${params.add(patterns)}::text[])`);

  // Rows of the account whose number or name holds the text; their targets are few and indexed by account.
  const rowsNamed = [
    `select 'invoice:' || uuid::text from invoices where account_uuid = $1 and number ilike ${p}`,
    `select 'ticket:' || uuid::text from support_tickets where account_uuid = $1
       and (subject ilike ${p} or number::text ilike ${p})`,
    `select 'invitation:' || uuid::text from invitations where account_uuid = $1 and email ilike ${p}`,
    `select 'transfer:' || o.uuid::text from ownership_transfers o join users u on u.uuid = o.to_user_uuid
      where o.account_uuid = $1 and (u.name ilike ${p} or u.email ilike ${p})`,
    `select 'cloud_connection:' || uuid::text from cloud_connections where account_uuid = $1
       and (cloud_name ilike ${p} or cloud_email ilike ${p})`,
    `select 'account:' || uuid::text from accounts where uuid = $1 and name ilike ${p}`,
  ];
  conditions.push(`a.target in (${rowsNamed.join(' union all ')})`);
  return conditions;
}
