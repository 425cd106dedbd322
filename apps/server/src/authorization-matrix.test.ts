// Who may call what: every endpoint of the OpenAPI document, called by each kind of caller, against one table of
// expected answers. The table is written by hand from the product's role rules (not read from the contract), so a
// route whose rule drifts fails here; a route without a row fails too, so every new endpoint is decided on.
// A caller who may not see the account gets the same 404 as for an account that does not exist.
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ABACLIK_CODE_ALPHABET } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from './demo/users.ts';
import { DEMO_ANNOUNCEMENTS } from './demo/announcements.ts';
import { DEMO_BILLING_ADDRESS } from './demo/billing.ts';
import { DEMO_COURSE, DEMO_LESSON_UUIDS } from './demo/lessons.ts';
import { describeApi, type DemoLogin, type TestApi } from './test/api.ts';
import { allowStaff, insertTestAttachment, insertTestTicket } from './test/support-tickets.ts';

/** The callers: each a demo login, except anonymous. */
const CALLERS = ['anonymous', 'employee', 'admin', 'coach', 'owner', 'otherAccount', 'staff'] as const;
type Caller = (typeof CALLERS)[number];
const LOGIN: Record<Exclude<Caller, 'anonymous'>, DemoLogin> = {
  employee: 'employee', // EMPLOYEE of Muster AG
  admin: 'admin', // ADMIN of Muster AG
  coach: 'coach', // DC of Muster AG
  owner: 'owner', // OWNER of Muster AG
  otherAccount: 'newowner', // OWNER of Neu Sàrl only, no member of Muster AG
  // SUPPORT_AGENT: acts on a customer's account as SUPPORT while the customer allows it (the suite's Muster AG
  // has an open ticket with that consent; the last test takes it away).
  staff: 'agent',
};

/** `ok`: passes the access rules (the handler answers: 2xx, or 409 for a state rule of its own). */
type Expected = 'ok' | 401 | 403 | 404;
type Expectations = Record<Caller, Expected>;

const MUSTER: string = DEMO_ACCOUNTS.muster;
const UNKNOWN_ACCOUNT = '6f1c2b1e-0002-4000-8000-0000000000ff';

/** Public: no sign-in needed. */
const open: Expectations = {
  anonymous: 'ok',
  employee: 'ok',
  admin: 'ok',
  coach: 'ok',
  owner: 'ok',
  otherAccount: 'ok',
  staff: 'ok',
};
/** Anyone signed in, about themselves. */
const signedIn: Expectations = { ...open, anonymous: 401 };
/**
 * Reads of members at `role` or above (EMPLOYEE < ADMIN < DC < OWNER); others never see the account. Staff under a
 * customer's consent read what an ADMIN reads.
 */
function atLeast(role: 'EMPLOYEE' | 'ADMIN' | 'OWNER'): Expectations {
  const level = { EMPLOYEE: 0, ADMIN: 1, OWNER: 3 }[role];
  const allow = (callerLevel: number): Expected => (callerLevel >= level ? 'ok' : 403);
  return {
    anonymous: 401,
    employee: allow(0),
    admin: allow(1),
    coach: allow(2),
    owner: allow(3),
    otherAccount: 404,
    staff: allow(1),
  };
}
/** A change members at `role` or above make; staff under consent only read (403 STAFF_READ_ONLY). */
const change = (role: 'EMPLOYEE' | 'ADMIN'): Expectations => ({ ...atLeast(role), staff: 403 });
/** A change the route declares a support action: staff under consent may make it, as an ADMIN could. */
const supportAction = (role: 'ADMIN'): Expectations => ({ ...atLeast(role), staff: 'ok' });
/** About the caller's own invitation to the account: members answer from the handler, everyone else 404. */
const ownInvitation: Expectations = { ...atLeast('EMPLOYEE'), staff: 404 };
/** Support staff across accounts (the agents' side of support): customers are refused whatever their role. */
const supportStaff: Expectations = {
  anonymous: 401,
  employee: 403,
  admin: 403,
  coach: 403,
  owner: 403,
  otherAccount: 403,
  staff: 'ok',
};
/** Billing staff across accounts (SUPPORT_MANAGER and above): customers and support agents alike are refused. */
const billingStaff: Expectations = { ...supportStaff, staff: 403 };
/**
 * Lesson authors (TEACHER and PORTAL_ADMIN only): every caller of the table is refused, support staff too; the
 * test after the table lets the teacher through and refuses a SUPPORT_MANAGER.
 */
const authors: Expectations = { ...supportStaff, staff: 403 };
/** The owner only (staff, acting as SUPPORT, too are refused). */
const ownerOnly: Expectations = atLeast('OWNER');

/** Muster AG's profile as the demo data has it: saving it changes nothing. */
const MUSTER_PROFILE = {
  legalName: 'Muster AG',
  street: 'Bahnhofstrasse 10',
  postcode: '8001',
  city: 'Zürich',
  country: 'CH',
  uid: 'CHE-123.456.788',
  vatNumber: null,
  billingEmail: 'buchhaltung@example.com',
  phone: '+41 44 123 45 67',
  website: 'https://www.example.com',
};
/** A course and a lesson the schema accepts. */
const MATRIX_COURSE = {
  title: { de: 'Matrix-Kurs', en: '', fr: '', it: '' },
  audience: 'all',
  audiencePlans: [],
};
const MATRIX_LESSON = {
  minutes: 3,
  title: { de: 'Matrix-Lektion', en: '', fr: '', it: '' },
  body: { de: 'Text der Matrix', en: '', fr: '', it: '' },
};
/** An announcement the schema accepts (for a month from tomorrow, to Muster AG). */
const MATRIX_ANNOUNCEMENT = {
  kind: 'info',
  title: { de: 'Matrix' },
  body: { de: 'Matrix' },
  audience: 'accounts',
  audienceValues: [MUSTER],
  roles: 'everyone',
  startsAt: new Date(Date.now() + 86_400_000).toISOString(),
  endsAt: null,
};
/** A 1×1 PNG. */
const PIXEL_LOGO = {
  fileName: 'logo.png',
  content: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
};

/** Someone's own invitation link or transfer offer: only the person it names may answer it. */
const notTheirs: Expectations = {
  anonymous: 401,
  employee: 403,
  admin: 403,
  coach: 403,
  owner: 403,
  otherAccount: 404,
  staff: 403,
};
/** A link token nobody holds: signed-in callers hear "no such invitation". */
const unknownLink: Expectations = {
  ...notTheirs,
  employee: 404,
  admin: 404,
  coach: 404,
  owner: 404,
  staff: 404,
};

interface Prepared {
  params?: Record<string, string>;
  body?: unknown;
}

interface Row {
  expect: Expectations;
  /** Path parameters; `{accountUuid}` and `{id}` default to Muster AG. */
  params?: Record<string, string>;
  /** A body the schema accepts, so the access rules decide. */
  body?: unknown;
  /** Runs before each caller's request: a fresh target where an allowed caller uses one up (a removed member). */
  prepare?: (api: TestApi, caller: Caller) => Promise<Prepared>;
  /** An event stream: its status decides; an open one stays open until the app closes. */
  stream?: boolean;
}

/** The newest invoice of Muster AG, as the invoice route's parameter. */
async function musterInvoice(api: TestApi): Promise<Prepared> {
  const { rows } = await api.db.query<{ uuid: string }>(
    'select uuid from invoices where account_uuid = $1 order by issued_on desc limit 1',
    [MUSTER],
  );
  return { params: { invoiceUuid: rows[0]!.uuid } };
}

/** A new member of Muster AG (no demo login), so that removing or changing one leaves the demo members alone. */
async function freshMember(api: TestApi, role: 'EMPLOYEE' | 'ADMIN' = 'EMPLOYEE'): Promise<string> {
  const uuid = crypto.randomUUID();
  await api.db.query(
    'insert into users (uuid, subject, email, name, email_verified) values ($1, $2, $3, $4, true)',
    [uuid, uuid, `matrix-${uuid}@example.org`, 'Matrix Member'],
  );
  await api.db.query('insert into account_members (account_uuid, user_uuid, role) values ($1, $2, $3)', [
    MUSTER,
    uuid,
    role,
  ]);
  return uuid;
}

/** A notification of Muster AG addressed to the caller (anonymous: to the owner), as `id`. */
async function ownNotification(api: TestApi, caller: Caller): Promise<Prepared> {
  const user = caller === 'anonymous' ? DEMO_USERS.owner : DEMO_USERS[LOGIN[caller]];
  const { rows } = await api.db.query<{ uuid: string }>(
    `insert into notifications (account_uuid, user_uuid, type, params) values ($1, $2, 'terms.to_accept', '{}')
     returning uuid`,
    [MUSTER, user.id],
  );
  return { params: { id: rows[0]!.uuid } };
}

/** A ready export of the caller's data (anonymous: the owner's), as `id`. */
async function ownExport(api: TestApi, caller: Caller): Promise<Prepared> {
  const user = caller === 'anonymous' ? DEMO_USERS.owner : DEMO_USERS[LOGIN[caller]];
  const { rows } = await api.db.query<{ uuid: string }>(
    `insert into data_exports (uuid, user_uuid, state, entries, ready_at, expires_at)
     values (gen_random_uuid(), $1, 'ready', '[]', now(), now() + interval '1 day') returning uuid`,
    [user.id],
  );
  return { params: { id: rows[0]!.uuid } };
}

/** A ready export of Muster AG's data, asked for by its owner, as `id`. */
async function accountExport(api: TestApi): Promise<Prepared> {
  const { rows } = await api.db.query<{ uuid: string }>(
    `insert into data_exports (uuid, user_uuid, account_uuid, state, entries, ready_at, expires_at)
     values (gen_random_uuid(), $1, $2, 'ready', '[]', now(), now() + interval '1 day') returning uuid`,
    [DEMO_USERS.owner.id, MUSTER],
  );
  return { params: { id: rows[0]!.uuid } };
}

async function freshInvitation(api: TestApi): Promise<string> {
  const uuid = crypto.randomUUID();
  await api.db.query(
    `insert into invitations (uuid, account_uuid, email, role, token_hash, expires_at, invited_by)
     values ($1, $2, $3, 'EMPLOYEE', $4, now() + interval '7 days', $5)`,
    [uuid, MUSTER, `invited-${uuid}@example.org`, uuid, DEMO_USERS.owner.id],
  );
  return uuid;
}

/** The pending transfer of Muster AG, offered to an admin who is none of the callers. */
async function pendingTransfer(api: TestApi): Promise<string> {
  const { rows } = await api.db.query<{ uuid: string }>(
    `select uuid from ownership_transfers where account_uuid = $1 and status = 'PENDING'`,
    [MUSTER],
  );
  if (rows[0]) return rows[0].uuid;
  const uuid = crypto.randomUUID();
  await api.db.query(
    `insert into ownership_transfers (uuid, account_uuid, from_user_uuid, to_user_uuid, expires_at)
     values ($1, $2, $3, $4, now() + interval '7 days')`,
    [uuid, MUSTER, DEMO_USERS.owner.id, await freshMember(api, 'ADMIN')],
  );
  return uuid;
}

const UNKNOWN_TOKEN = 'matrix-token-nobody-holds';

/** A new ticket of Muster AG opened by the employee (whom every other member may see too), with a text file. */
async function employeeTicket(api: TestApi): Promise<{ ticketUuid: string; fileUuid: string }> {
  const ticketUuid = crypto.randomUUID();
  const fileUuid = crypto.randomUUID();
  await api.db.query(
    `insert into support_tickets (uuid, account_uuid, created_by, category, severity, subject)
     values ($1, $2, $3, 'OTHER', 'LOW', 'Matrix')`,
    [ticketUuid, MUSTER, DEMO_USERS.employee.id],
  );
  await api.db.query(
    `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content)
     values ($1, $2, 'support-attachment', 'text/plain', 4, 'x', 'note.txt', $3)`,
    [fileUuid, MUSTER, Buffer.from('note')],
  );
  const { rows } = await api.db.query<{ id: string }>(
    `insert into support_messages (ticket_uuid, author_uuid, author_kind, body)
     values ($1, $2, 'CUSTOMER', 'A ticket for the matrix') returning id`,
    [ticketUuid, DEMO_USERS.employee.id],
  );
  await api.db.query(
    'insert into support_attachments (file_uuid, message_id, ticket_uuid) values ($1, $2, $3)',
    [fileUuid, rows[0]!.id, ticketUuid],
  );
  return { ticketUuid, fileUuid };
}
/** An open AbaClik activation code of the caller in `account` (anonymous and staff: the owner's), by its uuid or code. */
async function abaclikCode(api: TestApi, caller: Caller, account: string): Promise<string> {
  const login = caller === 'anonymous' || caller === 'staff' ? 'owner' : LOGIN[caller];
  const code = Array.from({ length: 8 }, () => ABACLIK_CODE_ALPHABET[crypto.randomInt(31)]).join('');
  const uuid = crypto.randomUUID();
  await api.db.query('delete from abaclik_codes where user_uuid = $1', [DEMO_USERS[login].id]);
  await api.db.query(
    `insert into abaclik_codes (uuid, account_uuid, user_uuid, code_hash, expires_at)
     values ($1, $2, $3, $4, now() + interval '10 minutes')`,
    [uuid, account, DEMO_USERS[login].id, crypto.createHash('sha256').update(code).digest('hex')],
  );
  return account === MUSTER ? uuid : code;
}

/** A paired AbaClik device of the caller in Muster AG (anonymous and staff: the owner's), as `uuid`. */
async function abaclikDevice(api: TestApi, caller: Caller): Promise<string> {
  const login = caller === 'anonymous' || caller === 'staff' ? 'owner' : LOGIN[caller];
  const uuid = crypto.randomUUID();
  await api.db.query(
    `insert into abaclik_devices (uuid, account_uuid, user_uuid, name, platform, app_version, token_hash)
     values ($1, $2, $3, 'Matrix phone', 'IOS', '1.0.0', $4)`,
    [uuid, MUSTER, DEMO_USERS[login].id, crypto.randomBytes(32).toString('hex')],
  );
  return uuid;
}

const onEmployeeTicket = async (api: TestApi) => ({
  params: { ticketUuid: (await employeeTicket(api)).ticketUuid },
});
const NEW_TICKET = {
  category: 'TECHNICAL',
  severity: 'NORMAL',
  subject: 'Matrix ticket',
  description: 'Something to look at',
  staffAccessConsent: false,
  attachments: [],
};

/** The first lesson of the course every account is offered. */
async function firstLesson(api: TestApi): Promise<{ params: { lessonUuid: string } }> {
  const { rows } = await api.db.query<{ uuid: string }>('select uuid from lessons order by position limit 1');
  return { params: { lessonUuid: rows[0]!.uuid } };
}

/** An image of the first lesson (a file of no account in the store), made once per database. */
const matrixImages = new WeakMap<TestApi, { lessonUuid: string; imageUuid: string }>();
async function firstLessonImage(
  api: TestApi,
): Promise<{ params: { lessonUuid: string; imageUuid: string } }> {
  let image = matrixImages.get(api);
  if (!image) {
    const { lessonUuid } = (await firstLesson(api)).params;
    const imageUuid = crypto.randomUUID();
    const content = Buffer.from(PIXEL_LOGO.content, 'base64');
    await api.db.query(
      `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content)
       values ($1, null, 'lesson-image', 'image/png', $2, $3, 'matrix.png', $4)`,
      [imageUuid, content.length, crypto.createHash('sha256').update(content).digest('hex'), content],
    );
    await api.db.query('insert into lesson_images (file_uuid, lesson_uuid) values ($1, $2)', [
      imageUuid,
      lessonUuid,
    ]);
    image = { lessonUuid, imageUuid };
    matrixImages.set(api, image);
  }
  return { params: image };
}

/** A fresh course (with one draft lesson) that an allowed caller may delete. */
async function freshCourse(api: TestApi): Promise<{ params: { courseUuid: string; lessonUuid: string } }> {
  const { rows } = await api.db.query<{ uuid: string }>(
    `insert into courses (position, title) values (999, '{"de": "Matrix"}') returning uuid`,
  );
  const courseUuid = rows[0]!.uuid;
  const lesson = await api.db.query<{ uuid: string }>(
    'insert into lessons (course_uuid, position, minutes) values ($1, 10, 1) returning uuid',
    [courseUuid],
  );
  return { params: { courseUuid, lessonUuid: lesson.rows[0]!.uuid } };
}

/** A fresh open ticket of Muster AG (no consent of its own), for the agents' endpoints. */
async function musterTicket(api: TestApi): Promise<{ params: { ticketUuid: string } }> {
  const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: DEMO_USERS.owner.id });
  return { params: { ticketUuid: ticket.uuid } };
}

/**
 * One row per endpoint of the OpenAPI document. Rows run in this order and may change data (a caller allowed to
 * change something does change it), so the ones that end something come last.
 */
const MATRIX: Record<string, Row> = {
  'GET /api/config': { expect: open },
  'GET /api/users/v1/me': { expect: signedIn },
  // The signed-in user's own notifications, live.
  'GET /api/notifications/v1/stream': { expect: signedIn, stream: true },
  'PATCH /api/users/v1/me': { expect: signedIn, body: { language: 'de' } },
  'GET /api/users/v1/me/accounts': { expect: signedIn },
  // About one's own invitation: who has none to Muster AG (staff included) hears "no such invitation", a 404.
  'POST /api/users/v1/me/accounts/{id}/invitation/accept': { expect: ownInvitation },
  'POST /api/users/v1/me/accounts/{id}/invitation/decline': { expect: ownInvitation },
  'POST /api/accounts/v1/accounts': {
    expect: signedIn,
    body: { name: 'Matrix GmbH', country: 'CH', preferredLanguage: 'de' },
  },
  'GET /api/accounts/v1/accounts/{id}': { expect: atLeast('EMPLOYEE') },
  // Name, country and language need ADMIN (the handler decides per field; other fields are tested in the area).
  'PATCH /api/accounts/v1/accounts/{id}': { expect: change('ADMIN'), body: { preferredLanguage: 'de' } },
  'GET /api/accounts/{accountUuid}/company/v1/profile': { expect: atLeast('ADMIN') },
  'PUT /api/accounts/{accountUuid}/company/v1/profile': { expect: change('ADMIN'), body: MUSTER_PROFILE },
  'PUT /api/accounts/{accountUuid}/company/v1/logo': { expect: change('ADMIN'), body: PIXEL_LOGO },
  'GET /api/accounts/{accountUuid}/company/v1/logo': { expect: atLeast('EMPLOYEE') },
  'DELETE /api/accounts/{accountUuid}/company/v1/logo': { expect: change('ADMIN') },
  'GET /api/accounts/{accountUuid}/company/v1/two-factor-policy': { expect: atLeast('ADMIN') },
  'GET /api/accounts/{accountUuid}/company/v1/two-factor-policy/members-without': {
    expect: atLeast('ADMIN'),
  },
  'PUT /api/accounts/{accountUuid}/company/v1/two-factor-policy': {
    expect: ownerOnly,
    body: { enabled: false },
  },
  'GET /api/accounts/{accountUuid}/members/v1/members': { expect: atLeast('ADMIN') },
  'GET /api/accounts/{accountUuid}/members/v1/members/{id}': {
    expect: atLeast('ADMIN'),
    params: { id: DEMO_USERS.employee.id },
  },
  'PATCH /api/accounts/{accountUuid}/members/v1/members/{id}': {
    expect: change('ADMIN'),
    body: { role: 'ADMIN' },
    prepare: async (api) => ({ params: { id: await freshMember(api) } }),
  },
  'DELETE /api/accounts/{accountUuid}/members/v1/members/{id}': {
    expect: change('ADMIN'),
    prepare: async (api) => ({ params: { id: await freshMember(api) } }),
  },
  'POST /api/accounts/{accountUuid}/members/v1/invitations': {
    expect: change('ADMIN'),
    body: { emails: ['matrix.invite@example.org'], role: 'EMPLOYEE' },
  },
  'POST /api/accounts/{accountUuid}/members/v1/invitations/{id}/resend': {
    expect: change('ADMIN'),
    prepare: async (api) => ({ params: { id: await freshInvitation(api) } }),
  },
  'DELETE /api/accounts/{accountUuid}/members/v1/invitations/{id}': {
    expect: change('ADMIN'),
    prepare: async (api) => ({ params: { id: await freshInvitation(api) } }),
  },
  'GET /api/members/v1/invitation-links/{token}': { expect: unknownLink, params: { token: UNKNOWN_TOKEN } },
  'POST /api/members/v1/invitation-links/{token}/accept': {
    expect: unknownLink,
    params: { token: UNKNOWN_TOKEN },
  },
  'POST /api/members/v1/invitation-links/{token}/decline': {
    expect: unknownLink,
    params: { token: UNKNOWN_TOKEN },
  },
  'GET /api/accounts/{accountUuid}/ownership/v1/ownership': { expect: atLeast('OWNER') },
  'GET /api/accounts/{accountUuid}/ownership/v1/candidates': { expect: atLeast('OWNER') },
  'GET /api/accounts/{accountUuid}/ownership/v1/transfers/pending': { expect: atLeast('EMPLOYEE') },
  'POST /api/accounts/{accountUuid}/ownership/v1/transfers': {
    expect: ownerOnly,
    prepare: async (api) => {
      await api.db.query(`update ownership_transfers set status = 'CANCELLED' where account_uuid = $1`, [
        MUSTER,
      ]);
      return { body: { toUserUuid: await freshMember(api, 'ADMIN'), confirmAccountName: 'Muster AG' } };
    },
  },
  'POST /api/accounts/{accountUuid}/ownership/v1/transfers/{id}/cancel': {
    expect: ownerOnly,
    prepare: async (api) => ({ params: { id: await pendingTransfer(api) } }),
  },
  'POST /api/accounts/{accountUuid}/ownership/v1/transfers/{id}/accept': {
    expect: notTheirs,
    prepare: async (api) => ({ params: { id: await pendingTransfer(api) } }),
  },
  'POST /api/accounts/{accountUuid}/ownership/v1/transfers/{id}/decline': {
    expect: notTheirs,
    prepare: async (api) => ({ params: { id: await pendingTransfer(api) } }),
  },
  'POST /api/accounts/v1/accounts/{accountUuid}/migration/begin': { expect: ownerOnly },
  // Subscriptions: ADMIN and above (RESUME of a running subscription is the handler's 409, nothing changes).
  'GET /api/accounts/{accountUuid}/subscriptions/v1/plans': { expect: atLeast('ADMIN') },
  'GET /api/accounts/{accountUuid}/subscriptions/v1/subscription': { expect: atLeast('ADMIN') },
  // A preview changes nothing: staff under consent may show the customer what a change would cost.
  'POST /api/accounts/{accountUuid}/subscriptions/v1/subscription/preview': {
    expect: supportAction('ADMIN'),
    body: { action: 'RESUME' },
  },
  'POST /api/accounts/{accountUuid}/subscriptions/v1/subscription/confirm': {
    expect: change('ADMIN'),
    body: { action: { action: 'RESUME' }, expectedChargeMinor: 0 },
  },
  // The log: every member reads it (lower roles see only their own entries; the handler filters).
  'GET /api/accounts/{accountUuid}/logs/v1/entries': { expect: atLeast('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/logs/v1/actors': { expect: atLeast('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/logs/v1/entries.csv': { expect: atLeast('EMPLOYEE') },
  // Each caller's own notifications: every member and staff acting on the account; nobody else's (the service).
  'GET /api/accounts/{accountUuid}/notifications/v1/notifications': { expect: atLeast('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/notifications/v1/notifications/{id}': {
    expect: atLeast('EMPLOYEE'),
    prepare: ownNotification,
  },
  'PATCH /api/accounts/{accountUuid}/notifications/v1/notifications/{id}': {
    expect: change('EMPLOYEE'),
    prepare: ownNotification,
    body: { read: true },
  },
  'POST /api/accounts/{accountUuid}/notifications/v1/notifications/{id}/archive': {
    expect: change('EMPLOYEE'),
    prepare: ownNotification,
  },
  'POST /api/accounts/{accountUuid}/notifications/v1/notifications/{id}/restore': {
    expect: change('EMPLOYEE'),
    prepare: ownNotification,
  },
  'POST /api/accounts/{accountUuid}/notifications/v1/notifications/read-all': { expect: change('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/notifications/v1/unread-count': { expect: atLeast('EMPLOYEE') },
  'GET /api/notifications/v1/preferences': { expect: signedIn },
  'PUT /api/notifications/v1/preferences': {
    expect: signedIn,
    body: { preferences: [{ type: 'ticket.solved', email: true }] },
  },
  // Lessons: every member reads the account's course and keeps their own progress in it (the service).
  'GET /api/accounts/{accountUuid}/lessons/v1/course': { expect: atLeast('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/lessons/v1/lessons/{lessonUuid}': {
    expect: atLeast('EMPLOYEE'),
    prepare: firstLesson,
  },
  // A lesson's image: whoever reads the lesson in the account.
  'GET /api/accounts/{accountUuid}/lessons/v1/lessons/{lessonUuid}/images/{imageUuid}': {
    expect: atLeast('EMPLOYEE'),
    prepare: firstLessonImage,
  },
  'POST /api/accounts/{accountUuid}/lessons/v1/lessons/{lessonUuid}/opened': {
    expect: change('EMPLOYEE'),
    prepare: firstLesson,
  },
  'PUT /api/accounts/{accountUuid}/lessons/v1/lessons/{lessonUuid}/completion': {
    expect: change('EMPLOYEE'),
    body: { completed: true },
    prepare: firstLesson,
  },
  // Lesson authoring: TEACHER and PORTAL_ADMIN across accounts (the routes' userRole); everyone else refused.
  'GET /api/lesson-authoring/v1/courses': { expect: authors },
  'POST /api/lesson-authoring/v1/courses': { expect: authors, body: MATRIX_COURSE },
  'PUT /api/lesson-authoring/v1/courses/{courseUuid}': {
    expect: authors,
    params: { courseUuid: DEMO_COURSE.uuid },
    body: { ...MATRIX_COURSE, title: { ...DEMO_COURSE.title } },
  },
  'PUT /api/lesson-authoring/v1/courses/{courseUuid}/order': {
    expect: authors,
    prepare: async (api) => {
      const { rows } = await api.db.query<{ uuid: string }>(
        'select uuid from lessons where course_uuid = $1 order by position',
        [DEMO_COURSE.uuid],
      );
      return { params: { courseUuid: DEMO_COURSE.uuid }, body: { lessonUuids: rows.map((r) => r.uuid) } };
    },
  },
  // Taken back and published again at once, so the learners' rows below still read the course.
  'DELETE /api/lesson-authoring/v1/courses/{courseUuid}/publication': {
    expect: authors,
    params: { courseUuid: DEMO_COURSE.uuid },
  },
  'POST /api/lesson-authoring/v1/courses/{courseUuid}/publication': {
    expect: authors,
    params: { courseUuid: DEMO_COURSE.uuid },
  },
  'DELETE /api/lesson-authoring/v1/courses/{courseUuid}': { expect: authors, prepare: freshCourse },
  'DELETE /api/lesson-authoring/v1/lessons/{lessonUuid}': { expect: authors, prepare: freshCourse },
  // Taken back before the rows below save a draft and publish it again.
  'DELETE /api/lesson-authoring/v1/lessons/{lessonUuid}/publication': {
    expect: authors,
    params: { lessonUuid: DEMO_LESSON_UUIDS[4]! },
  },
  'GET /api/lesson-authoring/v1/courses/{courseUuid}/progress': {
    expect: authors,
    params: { courseUuid: DEMO_COURSE.uuid },
  },
  'POST /api/lesson-authoring/v1/courses/{courseUuid}/lessons': {
    expect: authors,
    params: { courseUuid: DEMO_COURSE.uuid },
    body: MATRIX_LESSON,
  },
  'GET /api/lesson-authoring/v1/lessons/{lessonUuid}': {
    expect: authors,
    params: { lessonUuid: DEMO_LESSON_UUIDS[4]! },
  },
  'PUT /api/lesson-authoring/v1/lessons/{lessonUuid}': {
    expect: authors,
    params: { lessonUuid: DEMO_LESSON_UUIDS[4]! },
    body: MATRIX_LESSON,
  },
  'POST /api/lesson-authoring/v1/lessons/{lessonUuid}/publication': {
    expect: authors,
    params: { lessonUuid: DEMO_LESSON_UUIDS[4]! },
  },
  'POST /api/lesson-authoring/v1/preview': { expect: authors, body: { markdown: '**Matrix**' } },
  'POST /api/lesson-authoring/v1/lessons/{lessonUuid}/images': {
    expect: authors,
    params: { lessonUuid: DEMO_LESSON_UUIDS[4]! },
    body: PIXEL_LOGO,
  },
  'GET /api/lesson-authoring/v1/images/{imageUuid}': { expect: authors, prepare: firstLessonImage },
  // Security: each person's own sign-in security, never another's (the routes act on the token's subject only).
  'GET /api/users/v1/me/security': { expect: signedIn },
  // The own sign-in sessions (this suite's issuer is an external Keycloak: the handler answers 409 after the check).
  'GET /api/users/v1/me/security/sessions': { expect: signedIn },
  'DELETE /api/users/v1/me/security/sessions/{sessionId}': {
    expect: signedIn,
    params: { sessionId: 'unknown-session' },
  },
  'POST /api/users/v1/me/security/sessions/sign-out-others': { expect: signedIn },
  // Passkeys: one's own only (another person's passkey id is a 404 in the handler; without the embedded service, 409).
  'GET /api/users/v1/me/security/passkeys': { expect: signedIn },
  'POST /api/users/v1/me/security/passkeys/registration-options': { expect: signedIn },
  'POST /api/users/v1/me/security/passkeys': {
    expect: signedIn,
    body: { name: 'Laptop', response: { id: 'a', rawId: 'a', type: 'public-key' } },
  },
  'PATCH /api/users/v1/me/security/passkeys/{id}': { expect: signedIn, body: { name: 'Laptop' } },
  'DELETE /api/users/v1/me/security/passkeys/{id}': { expect: signedIn },
  // The embedded sign-in service's own forms (this suite's issuer is an external Keycloak: 409 after the check).
  'POST /api/users/v1/me/security/password': {
    expect: signedIn,
    body: { currentPassword: 'x', newPassword: 'y' },
  },
  'GET /api/users/v1/me/security/email': { expect: signedIn },
  'POST /api/users/v1/me/security/email': {
    expect: signedIn,
    body: { newEmail: 'neu@example.org', currentPassword: 'x' },
  },
  'DELETE /api/users/v1/me/security/email': { expect: signedIn },
  'GET /api/users/v1/me/security/sign-ins': { expect: signedIn },
  'POST /api/users/v1/me/security/totp': { expect: signedIn },
  'POST /api/users/v1/me/security/totp/confirm': { expect: signedIn, body: { code: '123456' } },
  'POST /api/users/v1/me/security/totp/disable': { expect: signedIn, body: { password: 'not-the-password' } },
  'POST /api/users/v1/me/security/recovery-codes': {
    expect: signedIn,
    body: { password: 'not-the-password' },
  },
  // The own data (decisions 231, 232): the export and its download are the caller's own only (another's id is a
  // 404 in the handler); the deletion of the login answers 409 here (an external Keycloak keeps the login).
  'GET /api/users/v1/me/data-export': { expect: signedIn },
  'POST /api/users/v1/me/data-export': { expect: signedIn, body: {} },
  'GET /api/users/v1/me/data-export/{id}/file': { expect: signedIn, prepare: ownExport },
  'GET /api/users/v1/me/deletion': { expect: signedIn },
  // The account's data (decision 240): its owner only; staff acting as SUPPORT are refused like an ADMIN.
  'GET /api/accounts/{accountUuid}/company/v1/data-export': { expect: ownerOnly },
  'POST /api/accounts/{accountUuid}/company/v1/data-export': { expect: ownerOnly, body: {} },
  'GET /api/accounts/{accountUuid}/company/v1/data-export/{id}/file': {
    expect: ownerOnly,
    prepare: accountExport,
  },
  'POST /api/users/v1/me/deletion': { expect: signedIn, body: { password: 'x', confirmation: 'x' } },
  'GET /api/support/v1/info': { expect: signedIn },
  // Every member reaches the tickets (an EMPLOYEE only their own; the handler filters).
  'GET /api/accounts/{accountUuid}/support/v1/tickets': { expect: atLeast('EMPLOYEE') },
  'POST /api/accounts/{accountUuid}/support/v1/tickets': { expect: change('EMPLOYEE'), body: NEW_TICKET },
  'GET /api/accounts/{accountUuid}/support/v1/tickets/{ticketUuid}': {
    expect: atLeast('EMPLOYEE'),
    prepare: onEmployeeTicket,
  },
  'GET /api/accounts/{accountUuid}/support/v1/tickets/{ticketUuid}/attachments/{fileUuid}': {
    expect: atLeast('EMPLOYEE'),
    prepare: async (api) => ({ params: await employeeTicket(api) }),
  },
  'POST /api/accounts/{accountUuid}/support/v1/tickets/{ticketUuid}/messages': {
    expect: change('EMPLOYEE'),
    body: { body: 'More detail', attachments: [] },
    prepare: onEmployeeTicket,
  },
  'PUT /api/accounts/{accountUuid}/support/v1/tickets/{ticketUuid}/consent': {
    expect: change('EMPLOYEE'),
    body: { staffAccessConsent: true },
    prepare: onEmployeeTicket,
  },
  'POST /api/accounts/{accountUuid}/support/v1/tickets/{ticketUuid}/close': {
    expect: change('EMPLOYEE'),
    prepare: onEmployeeTicket,
  },
  // An open ticket cannot be reopened: the callers who pass the access rules hear 409.
  'POST /api/accounts/{accountUuid}/support/v1/tickets/{ticketUuid}/reopen': {
    expect: change('EMPLOYEE'),
    prepare: onEmployeeTicket,
  },
  'GET /api/support/v1/agent/tickets': { expect: supportStaff },
  'GET /api/support/v1/agent/agents': { expect: supportStaff },
  'GET /api/support/v1/agent/tickets/{ticketUuid}': { expect: supportStaff, prepare: musterTicket },
  'GET /api/support/v1/agent/tickets/{ticketUuid}/attachments/{fileUuid}': {
    expect: supportStaff,
    prepare: async (api) => {
      const { params } = await musterTicket(api);
      return { params: { ...params, fileUuid: await insertTestAttachment(api, params.ticketUuid) } };
    },
  },
  'POST /api/support/v1/agent/tickets/{ticketUuid}/replies': {
    expect: supportStaff,
    body: { body: 'Matrix answer' },
    prepare: musterTicket,
  },
  'POST /api/support/v1/agent/tickets/{ticketUuid}/notes': {
    expect: supportStaff,
    body: { body: 'Matrix note' },
    prepare: musterTicket,
  },
  'PUT /api/support/v1/agent/tickets/{ticketUuid}/status': {
    expect: supportStaff,
    body: { status: 'WAITING_FOR_CUSTOMER' },
    prepare: musterTicket,
  },
  'PUT /api/support/v1/agent/tickets/{ticketUuid}/assignee': {
    expect: supportStaff,
    body: { assigneeUuid: DEMO_USERS.agent.id },
    prepare: musterTicket,
  },
  // Billing of the account: its admins (and staff while a ticket allows it); an invoice of Muster AG.
  'GET /api/accounts/{accountUuid}/billing/v1/invoices': { expect: atLeast('ADMIN') },
  'GET /api/accounts/{accountUuid}/billing/v1/invoices/{invoiceUuid}': {
    expect: atLeast('ADMIN'),
    prepare: musterInvoice,
  },
  'GET /api/accounts/{accountUuid}/billing/v1/invoices/{invoiceUuid}/pdf': {
    expect: atLeast('ADMIN'),
    prepare: musterInvoice,
  },
  'GET /api/accounts/{accountUuid}/billing/v1/details': { expect: atLeast('ADMIN') },
  'PUT /api/accounts/{accountUuid}/billing/v1/details': {
    expect: change('ADMIN'),
    body: {
      address: DEMO_BILLING_ADDRESS,
      vatNumber: null,
      recipients: ['buchhaltung@example.com'],
      purchaseOrder: null,
      paymentMethod: 'INVOICE',
    },
  },
  'GET /api/accounts/{accountUuid}/billing/v1/status': { expect: atLeast('ADMIN') },
  // Without a card provider (as here) the callers who pass the access rules hear 409.
  'POST /api/accounts/{accountUuid}/billing/v1/card/setup': { expect: change('ADMIN') },
  'POST /api/accounts/{accountUuid}/billing/v1/card': {
    expect: change('ADMIN'),
    body: { sessionId: 'cs_test_matrix' },
  },
  'DELETE /api/accounts/{accountUuid}/billing/v1/card': { expect: change('ADMIN') },
  'POST /api/billing/v1/payment-imports': {
    expect: billingStaff,
    body: { file: { fileName: 'camt054.xml', content: Buffer.from('<Document/>').toString('base64') } },
  },
  'GET /api/billing/v1/payment-imports': { expect: billingStaff },
  'GET /api/billing/v1/payments': { expect: billingStaff },
  'POST /api/billing/v1/payments/{paymentUuid}/resolution': {
    expect: billingStaff,
    body: { invoiceUuid: null, note: 'Matrix' },
  },
  'GET /api/billing/v1/staff/invoices': { expect: billingStaff },
  'POST /api/billing/v1/staff/invoices/{invoiceUuid}/paid': {
    expect: billingStaff,
    body: { paidOn: '2026-11-01', note: 'Matrix' },
  },
  'POST /api/billing/v1/staff/invoices/{invoiceUuid}/void': {
    expect: billingStaff,
    body: { reason: 'Matrix' },
  },
  // Announcements, staff side: SUPPORT_MANAGER and above (PORTAL_ADMIN publishes); customers and agents refused.
  'GET /api/announcements/v1/announcements': { expect: billingStaff },
  'POST /api/announcements/v1/announcements': { expect: billingStaff, body: MATRIX_ANNOUNCEMENT },
  'GET /api/announcements/v1/announcements/{announcementUuid}': { expect: billingStaff },
  'PUT /api/announcements/v1/announcements/{announcementUuid}': {
    expect: billingStaff,
    body: MATRIX_ANNOUNCEMENT,
  },
  'DELETE /api/announcements/v1/announcements/{announcementUuid}': { expect: billingStaff },
  'POST /api/announcements/v1/announcements/{announcementUuid}/publication': { expect: billingStaff },
  'POST /api/announcements/v1/announcements/{announcementUuid}/withdrawal': { expect: billingStaff },
  // The readers' side: anyone signed in, about an announcement that reached them (the demo maintenance reached every
  // member of an account; the agent has none, so to them it does not exist).
  'GET /api/announcements/v1/current': { expect: signedIn },
  'GET /api/announcements/v1/current/{announcementUuid}': {
    expect: { ...signedIn, staff: 404 },
    params: { announcementUuid: DEMO_ANNOUNCEMENTS.maintenance },
  },
  'POST /api/announcements/v1/current/{announcementUuid}/dismissal': {
    expect: { ...signedIn, staff: 404 },
    params: { announcementUuid: DEMO_ANNOUNCEMENTS.maintenance },
  },
  // The account directory: support staff across accounts; customers get the same 403 whatever they search.
  'GET /api/directory/v1/accounts': { expect: supportStaff },
  // AbaClik: every member pairs, lists and revokes their own devices (ADMIN and above every member's, the service).
  'GET /api/accounts/{accountUuid}/abaclik/v1/devices': { expect: atLeast('EMPLOYEE') },
  'POST /api/accounts/{accountUuid}/abaclik/v1/activation-codes': { expect: change('EMPLOYEE') },
  // One's own code: staff have none in the account, so theirs is "no such code".
  'GET /api/accounts/{accountUuid}/abaclik/v1/activation-codes/{uuid}': {
    expect: { ...atLeast('EMPLOYEE'), staff: 404 },
    prepare: async (api, caller) => ({ params: { uuid: await abaclikCode(api, caller, MUSTER) } }),
  },
  'DELETE /api/accounts/{accountUuid}/abaclik/v1/devices/{uuid}': {
    expect: change('EMPLOYEE'),
    prepare: async (api, caller) => ({ params: { uuid: await abaclikDevice(api, caller) } }),
  },
  // The app's exchange needs no sign-in (a code of Neu Sàrl, so nothing of Muster AG is answered).
  'POST /api/abaclik/v1/app/pairings': {
    expect: open,
    prepare: async (api) => ({
      body: {
        code: await abaclikCode(api, 'otherAccount', DEMO_ACCOUNTS.neu),
        deviceName: 'Matrix phone',
        platform: 'ANDROID',
        appVersion: '1.0.0',
      },
    }),
  },
  // The heartbeat takes a device token only: a user's sign-in is refused like no token at all.
  'POST /api/abaclik/v1/app/heartbeat': {
    expect: {
      ...open,
      anonymous: 401,
      employee: 401,
      admin: 401,
      coach: 401,
      owner: 401,
      otherAccount: 401,
      staff: 401,
    },
    body: { appVersion: '1.0.0' },
  },
  // The cloud connection: every member reads it, its admins connect and disconnect. No cloud is configured here,
  // so connecting and listing answer 409 to the callers who pass the access rules.
  'GET /api/accounts/{accountUuid}/deep-cloud/v1/connection': { expect: atLeast('EMPLOYEE') },
  'POST /api/accounts/{accountUuid}/deep-cloud/v1/auth': {
    expect: change('ADMIN'),
    body: { code: 'matrix-code', pkceCodeVerifier: 'm'.repeat(43) },
  },
  'GET /api/accounts/{accountUuid}/deep-cloud/v1/organizations': { expect: atLeast('EMPLOYEE') },
  'DELETE /api/accounts/{accountUuid}/deep-cloud/v1/connection': { expect: change('ADMIN') },
  // The shop connection: admins (and staff while a ticket allows it). The test asks a name that resolves to
  // loopback, refused without a connection; saving keeps the stored key.
  'GET /api/accounts/{accountUuid}/shop/v1/connection': { expect: atLeast('ADMIN') },
  'PUT /api/accounts/{accountUuid}/shop/v1/connection': {
    expect: change('ADMIN'),
    body: {
      url: 'https://shop.muster-ag.example',
      apiKey: '',
      syncProducts: true,
      syncOrders: true,
      syncCustomers: true,
      interval: 'MANUAL',
      enabled: true,
    },
  },
  'POST /api/accounts/{accountUuid}/shop/v1/connection/test': {
    expect: supportAction('ADMIN'),
    body: { url: 'https://localhost:9', apiKey: 'matrix-key-0000' },
  },
  'POST /api/accounts/{accountUuid}/shop/v1/connection/sync': { expect: change('ADMIN') },
  'DELETE /api/accounts/{accountUuid}/shop/v1/connection': { expect: change('ADMIN') },
  'DELETE /api/accounts/v1/accounts/{id}': { expect: ownerOnly },
  // Last: the members leave Muster AG; the owner may not (409: transfer first).
  'DELETE /api/users/v1/me/accounts/{id}': { expect: { ...atLeast('EMPLOYEE'), staff: 404 } },
};

/**
 * The only changes of an account staff under a customer's consent may make: neither changes anything of the
 * customer's (SPEC-DECISIONS 36: support reads what an ADMIN reads and changes only support actions).
 */
const SUPPORT_ACTIONS = [
  'POST /api/accounts/{accountUuid}/subscriptions/v1/subscription/preview',
  'POST /api/accounts/{accountUuid}/shop/v1/connection/test',
];

/** An unsafe method on a route of one account (area routes and the account's own record). */
function isAccountChange(endpoint: string): boolean {
  const [method, path] = endpoint.split(' ') as [string, string];
  return method !== 'GET' && /^\/api\/accounts\/(\{accountUuid\}|v1\/accounts\/\{)/.test(path);
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

async function endpoints(api: TestApi): Promise<string[]> {
  const document = (await api.request('GET', '/api/openapi.json')).json<OpenApiDocument>();
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

function urlOf(path: string, params: Record<string, string> = {}, account = MUSTER): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? account);
}

async function call(api: TestApi, endpoint: string, row: Row, caller: Caller, account = MUSTER) {
  const [method, path] = endpoint.split(' ') as [string, string];
  const prepared = (await row.prepare?.(api, caller)) ?? {};
  const body = prepared.body ?? row.body;
  return api.request(method as 'GET', urlOf(path, { ...row.params, ...prepared.params }, account), {
    ...(caller === 'anonymous' ? {} : { as: LOGIN[caller] }),
    ...(body === undefined ? {} : { body }),
    stream: row.stream,
  });
}

describeApi('the authorization matrix', (api) => {
  beforeAll(() => allowStaff(api, MUSTER, DEMO_USERS.owner.id));

  it('has a row for every endpoint of the OpenAPI document, and none for an endpoint that is gone', async () => {
    const documented = await endpoints(api);
    expect(documented.filter((endpoint) => !(endpoint in MATRIX))).toEqual([]);
    expect(Object.keys(MATRIX).filter((endpoint) => !documented.includes(endpoint))).toEqual([]);
  });

  it('answers every caller of every endpoint as the table says', async () => {
    const wrong: string[] = [];
    for (const [endpoint, row] of Object.entries(MATRIX)) {
      for (const caller of CALLERS) {
        const response = await call(api, endpoint, row, caller);
        const expected = row.expect[caller];
        // A 409 is the handler's own refusal (a state rule); a 422 would mean the row's body is wrong.
        const passed = response.statusCode < 400 || response.statusCode === 409;
        if (expected === 'ok' ? !passed : response.statusCode !== expected) {
          wrong.push(`${endpoint} as ${caller}: ${response.statusCode}, expected ${expected}`);
        }
        if (caller === 'staff' && response.statusCode === 403 && isAccountChange(endpoint)) {
          // Staff under consent are refused every change of the account that is not a support action, by the
          // account scope itself (not by a handler that may forget it).
          const { code } = response.json<{ code: string }>();
          if (code !== 'STAFF_READ_ONLY')
            wrong.push(`${endpoint} as staff: ${code}, expected STAFF_READ_ONLY`);
        }
        if (caller === 'otherAccount' || caller === 'anonymous') {
          // Nothing of Muster AG reaches a caller who may not see it.
          for (const secret of ['Muster', MUSTER, DEMO_USERS.owner.id]) {
            expect(response.body, `${endpoint} as ${caller}`).not.toContain(secret);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000); // about 900 requests: more than the default 30 s on a busy 2-core machine

  it('lets TEACHER and PORTAL_ADMIN through every authoring route, and refuses a SUPPORT_MANAGER', async () => {
    const rows = Object.entries(MATRIX).filter(([endpoint]) => endpoint.includes(' /api/lesson-authoring/'));
    expect(rows.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const [endpoint, row] of rows) {
      const [method, path] = endpoint.split(' ') as [string, string];
      for (const login of ['teacher', 'portalAdmin', 'billing'] as const) {
        const prepared = (await row.prepare?.(api, 'staff')) ?? {};
        const body = prepared.body ?? row.body;
        const response = await api.request(
          method as 'GET',
          urlOf(path, { ...row.params, ...prepared.params }),
          {
            as: login,
            ...(body === undefined ? {} : { body }),
          },
        );
        const passed = response.statusCode < 400 || response.statusCode === 409;
        if (login === 'billing' ? response.statusCode !== 403 : !passed) {
          wrong.push(`${endpoint} as ${login}: ${response.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets staff under consent change only the declared support actions', () => {
    const changes = Object.keys(MATRIX).filter(isAccountChange);
    expect(changes.length).toBeGreaterThan(40);
    const allowed = changes.filter((endpoint) => MATRIX[endpoint]!.expect.staff === 'ok');
    expect(allowed.sort()).toEqual([...SUPPORT_ACTIONS].sort());
  });

  it('answers a caller outside the account exactly as for an account that does not exist', async () => {
    for (const [endpoint, row] of Object.entries(MATRIX)) {
      if (row.expect.otherAccount !== 404) continue;
      const hidden = await call(api, endpoint, row, 'otherAccount');
      const missing = await call(api, endpoint, row, 'otherAccount', UNKNOWN_ACCOUNT);
      expect([hidden.statusCode, hidden.body], endpoint).toEqual([missing.statusCode, missing.body]);
    }
  });

  it('answers support staff as for an account that does not exist once no active ticket allows them in', async () => {
    await api.db.query('update support_tickets set staff_access_consent = false where account_uuid = $1', [
      MUSTER,
    ]);
    for (const [endpoint, row] of Object.entries(MATRIX)) {
      if (row.expect.otherAccount !== 404) continue;
      const refused = await call(api, endpoint, row, 'staff');
      const missing = await call(api, endpoint, row, 'staff', UNKNOWN_ACCOUNT);
      expect(refused.statusCode, endpoint).toBe(404);
      expect([refused.statusCode, refused.body], endpoint).toEqual([missing.statusCode, missing.body]);
    }
  });
});
