import Type from 'typebox';
import { CountryCode } from './accounts.ts';
import { formatUid } from './company.ts';
import { DateTime, ErrorBody, USER_ROLES, Uuid, hasLevel, type UserRole } from './common.ts';
import { CurrencySchema, IsoDate, formatInvoiceNumber } from './billing.ts';
import { SUBSCRIPTION_STATUSES } from './subscriptions.ts';
import { defineRoute } from './route.ts';

/**
 * The account directory: staff find a customer's account across all accounts and read its summary without opening
 * it (decision 229). What a summary shows depends on the caller's user role, each part with the lowest role that
 * sees it: every staff role the account's state (plan, country, members, owner's name, counts of open and overdue
 * invoices and open tickets, deletion schedule, two-factor rule); SUPPORT_AGENT and above, who answer customers,
 * the owner's address; SUPPORT_MANAGER and above, who handle payments, the amounts owed. A part the caller's role
 * does not see is left out of the answer, not blanked.
 */
export const DIRECTORY_ROLES = {
  search: 'SUPPORT',
  ownerEmail: 'SUPPORT_AGENT',
  invoiceAmounts: 'SUPPORT_MANAGER',
} as const satisfies Record<string, UserRole>;
export type DirectoryPart = keyof typeof DIRECTORY_ROLES;

/** Whether a user role sees a part of the directory (the server leaves out what it may not, the web mirrors it). */
export function maySeeInDirectory(role: UserRole | null | undefined, part: DirectoryPart): boolean {
  return hasLevel(USER_ROLES, role, DIRECTORY_ROLES[part]);
}

/** Longest search text. */
export const DIRECTORY_QUERY_MAX = 100;
/** Fewest characters a search by part of a name or an address takes (a trigram index serves three and more). */
export const DIRECTORY_TEXT_MIN = 3;
/** Largest page of the directory. */
export const DIRECTORY_PAGE_SIZE_MAX = 50;
/** Longest cursor: it carries an account's name (decision 252). */
export const DIRECTORY_CURSOR_MAX = 1000;

export const DirectoryQuery = Type.Object(
  {
    /**
     * Part of the account's name or of a member's address (three characters or more), a UID (CHE-123.456.789 with
     * any separators), an invoice number (2026-000042 or 2026-42) or a ticket number (42, Nr. 42, #42). Empty:
     * every account, by name.
     */
    q: Type.Optional(Type.String({ maxLength: DIRECTORY_QUERY_MAX })),
    /** Opaque keyset cursor from the previous page's `meta.nextCursor` (of the same search). */
    cursor: Type.Optional(Type.String({ maxLength: DIRECTORY_CURSOR_MAX })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: DIRECTORY_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type DirectoryQuery = Type.Static<typeof DirectoryQuery>;

export const DIRECTORY_MATCHES = ['name', 'uid', 'email', 'invoice', 'ticket'] as const;
export type DirectoryMatch = (typeof DIRECTORY_MATCHES)[number];

/** What one search text may name besides a name or an address: each form normalised as it is stored. */
export interface DirectorySearch {
  /** Lower-case text to find within names and addresses; null when shorter than DIRECTORY_TEXT_MIN. */
  text: string | null;
  /** The UID as stored: CHE-123.456.789. */
  uid: string | null;
  /** The invoice number as stored: 2026-000042. */
  invoice: string | null;
  ticket: number | null;
}

const TICKET = /^(?:nr\.?|no\.?|n°|n\.|#)?\s*(\d{1,15})$/i;
const INVOICE = /^(\d{4})\s*[-/.]\s*(\d{1,6})$/;
// A UID in any spacing and punctuation, with or without its VAT suffix: "CHE-123.456.788", "che 123 456 788 MWST".
const UID = /^CHE(\d{9})(?:MWST|TVA|IVA|VAT)?$/i;
// A UID written without its prefix, e.g. "123.456.788" or "123 456 788" (nine digits alone are a ticket number).
const BARE_UID = /^(\d{3})[.\s-](\d{3})[.\s-](\d{3})$/;

/** Reads a search text: what it can name (a UID, an invoice number, a ticket number) and the text to find. */
export function parseDirectorySearch(q: string): DirectorySearch {
  const text = q.trim().replace(/\s+/g, ' ');
  const uid =
    UID.exec(text.replace(/[^0-9a-z]/gi, ''))?.[1] ?? BARE_UID.exec(text)?.slice(1).join('') ?? null;
  const invoice = INVOICE.exec(text);
  const ticket = TICKET.exec(text);
  return {
    text: text.length >= DIRECTORY_TEXT_MIN ? text.toLowerCase() : null,
    uid: uid ? formatUid(`CHE${uid}`) : null,
    invoice: invoice ? formatInvoiceNumber(Number(invoice[1]), Number(invoice[2])) : null,
    ticket: ticket ? Number(ticket[1]) : null,
  };
}

export const DirectoryOwner = Type.Object({
  name: Type.String(),
  /** SUPPORT_AGENT and above. */
  email: Type.Optional(Type.String()),
});

/** Amounts still owed per currency, in minor units. */
export const DirectoryAmounts = Type.Array(
  Type.Object({ currency: CurrencySchema, openMinor: Type.Integer(), overdueMinor: Type.Integer() }),
);

/** One account as the directory shows it: enough to answer a caller without opening the account. */
export const DirectoryAccount = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  country: CountryCode,
  uid: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime,
  /** What of the search found the account. */
  matchedBy: Type.Array(Type.Enum(DIRECTORY_MATCHES)),
  /** Null while the account has no subscription yet (its trial starts on its first visit to billing). */
  subscription: Type.Union([
    Type.Object({
      planCode: Type.String(),
      planName: Type.String(),
      status: Type.Enum(SUBSCRIPTION_STATUSES),
      cancelAtPeriodEnd: Type.Boolean(),
      currentPeriodEnd: IsoDate,
    }),
    Type.Null(),
  ]),
  membersCount: Type.Integer(),
  owner: Type.Union([DirectoryOwner, Type.Null()]),
  invoices: Type.Object({
    openCount: Type.Integer(),
    overdueCount: Type.Integer(),
    /** SUPPORT_MANAGER and above. */
    amounts: Type.Optional(DirectoryAmounts),
  }),
  openTickets: Type.Integer(),
  /** Set while deletion is scheduled: the account is deleted after this instant. */
  availableUntil: Type.Union([DateTime, Type.Null()]),
  twoFactor: Type.Object({ required: Type.Boolean(), graceUntil: Type.Union([DateTime, Type.Null()]) }),
  /**
   * Whether the caller may open the account now: PORTAL_ADMIN always, support roles while the customer allows it
   * on an open ticket. Opening it is the account's own route, with its access rules and its log entry.
   */
  mayOpen: Type.Boolean(),
});
export type DirectoryAccount = Type.Static<typeof DirectoryAccount>;

/**
 * A page of the directory, by name (decision 252): `nextCursor` continues after its last account, null on the last
 * page. `total` counts a search's hits; the unfiltered list has none (null): it pages along the name without
 * counting every account.
 */
export const DirectoryList = Type.Object({
  data: Type.Array(DirectoryAccount),
  meta: Type.Object({
    pageSize: Type.Integer(),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
    total: Type.Union([Type.Integer(), Type.Null()]),
  }),
});
export type DirectoryList = Type.Static<typeof DirectoryList>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

/** Staff across accounts: not account routes; the caller's user role decides (403 below SUPPORT). */
export const directoryRoutes = {
  searchDirectory: defineRoute({
    method: 'GET',
    path: '/directory/v1/accounts',
    summary:
      'Find accounts by name, UID, member address, invoice or ticket number, each with its summary (support staff)',
    tags: ['directory'],
    querystring: DirectoryQuery,
    response: { 200: DirectoryList, ...errors },
  }),
};
