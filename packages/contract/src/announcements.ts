import Type from 'typebox';
import {
  DateTime,
  Entity,
  ErrorBody,
  List,
  PageNumber,
  USER_ROLES,
  Uuid,
  hasLevel,
  type Language,
  type UserRole,
} from './common.ts';
import { defineRoute } from './route.ts';

// Announcements: the provider tells its customers about a maintenance window, an incident or something new. Staff
// write them (SUPPORT_MANAGER drafts, PORTAL_ADMIN also publishes and withdraws); once published, every person of
// the audience gets one notification when the window starts, and during the window a maintenance or incident shows
// as a bar in the shell until they close it.

export const ANNOUNCEMENT_KINDS = ['info', 'maintenance', 'incident'] as const;
export type AnnouncementKind = (typeof ANNOUNCEMENT_KINDS)[number];
/** Kinds that show as a bar in the shell during their window, and are always mailed to the accounts' owners. */
export const URGENT_ANNOUNCEMENT_KINDS: readonly AnnouncementKind[] = ['maintenance', 'incident'];

/** Who hears of it: every account, those on given plans, in given countries, or a list of accounts. */
export const ANNOUNCEMENT_AUDIENCES = ['all', 'plans', 'countries', 'accounts'] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];
/** Within those accounts: every member, or the owners and admins only. */
export const ANNOUNCEMENT_ROLES = ['everyone', 'admins'] as const;
export type AnnouncementRoles = (typeof ANNOUNCEMENT_ROLES)[number];

export const ANNOUNCEMENT_STATUSES = ['draft', 'published', 'withdrawn'] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];

/** Who on the staff may write drafts (and read the list), and who may publish, change a published one or withdraw. */
export const ANNOUNCEMENT_ROLES_NEEDED = {
  draft: 'SUPPORT_MANAGER',
  publish: 'PORTAL_ADMIN',
} as const satisfies Record<string, UserRole>;
export type AnnouncementAction = keyof typeof ANNOUNCEMENT_ROLES_NEEDED;

/** Whether a user role may do an announcement action (the server enforces it, the web mirrors it). */
export function mayAnnounce(role: UserRole | null | undefined, action: AnnouncementAction): boolean {
  return hasLevel(USER_ROLES, role, ANNOUNCEMENT_ROLES_NEEDED[action]);
}

export const ANNOUNCEMENT_TITLE_MAX = 120;
export const ANNOUNCEMENT_BODY_MAX = 10_000;
/** Most plans, countries or accounts an audience names. */
export const ANNOUNCEMENT_AUDIENCE_MAX = 500;
export const ANNOUNCEMENTS_PAGE_SIZE_MAX = 100;

const Title = Type.String({ maxLength: ANNOUNCEMENT_TITLE_MAX });
const Body = Type.String({ maxLength: ANNOUNCEMENT_BODY_MAX });

/** A text per language: German required (not empty), the others optional; an empty one falls back to German. */
export const AnnouncementTitles = Type.Object(
  { de: Title, en: Type.Optional(Title), fr: Type.Optional(Title), it: Type.Optional(Title) },
  { additionalProperties: false },
);
export type AnnouncementTitles = Type.Static<typeof AnnouncementTitles>;
export const AnnouncementBodies = Type.Object(
  { de: Body, en: Type.Optional(Body), fr: Type.Optional(Body), it: Type.Optional(Body) },
  { additionalProperties: false },
);
export type AnnouncementBodies = Type.Static<typeof AnnouncementBodies>;

/** The text of `language`, or the German one where it is missing or empty. */
export function announcementText(
  texts: Partial<Record<Language, string>> & { de: string },
  language: string,
) {
  const text = texts[language as Language];
  return text && text.trim() !== '' ? text : texts.de;
}

/** What staff write: the texts, kind, audience and window. */
export const AnnouncementInput = Type.Object(
  {
    kind: Type.Enum(ANNOUNCEMENT_KINDS),
    title: AnnouncementTitles,
    /** Plain text with links, or the lessons' Markdown (rendered and sanitised on the server). */
    body: AnnouncementBodies,
    audience: Type.Enum(ANNOUNCEMENT_AUDIENCES),
    /** Plan codes, country codes (CH) or account uuids, as the audience says; empty for `all`. */
    audienceValues: Type.Array(Type.String({ maxLength: 64 }), { maxItems: ANNOUNCEMENT_AUDIENCE_MAX }),
    roles: Type.Enum(ANNOUNCEMENT_ROLES),
    startsAt: DateTime,
    endsAt: Type.Union([DateTime, Type.Null()]),
  },
  { additionalProperties: false },
);
export type AnnouncementInput = Type.Static<typeof AnnouncementInput>;

/** An announcement as staff see it, with how many people it reached and how many of them read it. */
export const Announcement = Type.Object({
  uuid: Uuid,
  ...AnnouncementInput.properties,
  status: Type.Enum(ANNOUNCEMENT_STATUSES),
  /** People who have it in their inbox (0 before the start). */
  reach: Type.Integer({ minimum: 0 }),
  read: Type.Integer({ minimum: 0 }),
  /** When every person of the audience had it; null while the fan-out runs or before the start. */
  fannedOutAt: Type.Union([DateTime, Type.Null()]),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime,
  publishedAt: Type.Union([DateTime, Type.Null()]),
  withdrawnAt: Type.Union([DateTime, Type.Null()]),
});
export type Announcement = Type.Static<typeof Announcement>;

export const AnnouncementsQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(ANNOUNCEMENT_STATUSES)),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: ANNOUNCEMENTS_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type AnnouncementsQuery = Type.Static<typeof AnnouncementsQuery>;

/** A maintenance or incident whose window is open, for the shell's bar of a person in its audience. */
export const CurrentAnnouncement = Type.Object({
  uuid: Uuid,
  kind: Type.Enum(ANNOUNCEMENT_KINDS),
  title: AnnouncementTitles,
  startsAt: DateTime,
  endsAt: Type.Union([DateTime, Type.Null()]),
  /** The person's notification of it: the bar links to it. */
  notificationUuid: Uuid,
});
export type CurrentAnnouncement = Type.Static<typeof CurrentAnnouncement>;

/** An announcement as its reader sees it: the text as HTML the server rendered and sanitised, per language. */
export const AnnouncementReading = Type.Object({
  uuid: Uuid,
  kind: Type.Enum(ANNOUNCEMENT_KINDS),
  title: AnnouncementTitles,
  html: Type.Object({ de: Type.String(), en: Type.String(), fr: Type.String(), it: Type.String() }),
  startsAt: DateTime,
  endsAt: Type.Union([DateTime, Type.Null()]),
});
export type AnnouncementReading = Type.Static<typeof AnnouncementReading>;

const Params = Type.Object({ announcementUuid: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ['announcements'];

/** Staff's side: SUPPORT_MANAGER and above read and draft, PORTAL_ADMIN publishes (the services check the role). */
export const announcementsRoutes = {
  listAnnouncements: defineRoute({
    method: 'GET',
    path: '/announcements/v1/announcements',
    summary: 'Announcements, newest first, with their reach and read counts (SUPPORT_MANAGER and above)',
    tags,
    querystring: AnnouncementsQuery,
    response: { 200: List(Announcement), ...errors },
  }),
  getAnnouncement: defineRoute({
    method: 'GET',
    path: '/announcements/v1/announcements/{announcementUuid}',
    summary: 'One announcement (SUPPORT_MANAGER and above)',
    tags,
    params: Params,
    response: { 200: Entity(Announcement), ...errors },
  }),
  createAnnouncement: defineRoute({
    method: 'POST',
    path: '/announcements/v1/announcements',
    summary: 'Write a draft (SUPPORT_MANAGER and above)',
    tags,
    body: AnnouncementInput,
    response: { 201: Entity(Announcement), ...errors },
  }),
  updateAnnouncement: defineRoute({
    method: 'PUT',
    path: '/announcements/v1/announcements/{announcementUuid}',
    summary:
      'Change a draft (SUPPORT_MANAGER and above) or a published one before its start (PORTAL_ADMIN); 409 after the start',
    tags,
    params: Params,
    body: AnnouncementInput,
    response: { 200: Entity(Announcement), ...errors, 409: ErrorBody },
  }),
  publishAnnouncement: defineRoute({
    method: 'POST',
    path: '/announcements/v1/announcements/{announcementUuid}/publication',
    summary: 'Publish a draft: its audience hears of it when it starts (PORTAL_ADMIN)',
    tags,
    params: Params,
    response: { 200: Entity(Announcement), ...errors, 409: ErrorBody },
  }),
  withdrawAnnouncement: defineRoute({
    method: 'POST',
    path: '/announcements/v1/announcements/{announcementUuid}/withdrawal',
    summary: 'Withdraw an announcement at any time: it leaves every inbox (PORTAL_ADMIN)',
    tags,
    params: Params,
    response: { 200: Entity(Announcement), ...errors, 409: ErrorBody },
  }),
  deleteAnnouncement: defineRoute({
    method: 'DELETE',
    path: '/announcements/v1/announcements/{announcementUuid}',
    summary: 'Delete a draft (SUPPORT_MANAGER and above); 409 for one that was published',
    tags,
    params: Params,
    response: { 204: Type.Null(), ...errors, 409: ErrorBody },
  }),
  // The readers' side: anyone signed in, about the announcements that reached them.
  listCurrentAnnouncements: defineRoute({
    method: 'GET',
    path: '/announcements/v1/current',
    summary:
      "The maintenance and incident announcements in their window that reached me and I haven't closed",
    tags,
    response: { 200: List(CurrentAnnouncement), 401: ErrorBody },
  }),
  dismissAnnouncement: defineRoute({
    method: 'POST',
    path: '/announcements/v1/current/{announcementUuid}/dismissal',
    summary: "Close an announcement's bar for me, on every device",
    tags,
    params: Params,
    response: { 204: Type.Null(), ...errors },
  }),
  readAnnouncement: defineRoute({
    method: 'GET',
    path: '/announcements/v1/current/{announcementUuid}',
    summary: 'An announcement that reached me, its text as HTML in every language',
    tags,
    params: Params,
    response: { 200: Entity(AnnouncementReading), ...errors },
  }),
};
