import Type from 'typebox';
import { DateTime, Entity, ErrorBody, Uuid, UuidParams } from './common.ts';
import { FileBytes } from './company.ts';
import { defineRoute } from './route.ts';

/**
 * A person's own data (settings/users, tab "Meine Daten"): the download of everything the portal keeps about them
 * (nDSG art. 25 and 28, GDPR art. 15 and 20) and the deletion of their login (nDSG art. 32, GDPR art. 17).
 * Decisions 231 (the export) and 232 (the erasure).
 */

/** How long a prepared export can be downloaded (days). */
export const DATA_EXPORT_DAYS = 7;
/** At most one export per this many hours. */
export const DATA_EXPORT_EVERY_HOURS = 24;

/** One export of the person's data: prepared by a job, then offered for DATA_EXPORT_DAYS. */
export const DataExport = Type.Object({
  uuid: Uuid,
  /** `preparing` while the job runs, `ready` to download until `expiresAt`, `failed` when the job gave up. */
  state: Type.Enum(['preparing', 'ready', 'failed'] as const),
  requestedAt: DateTime,
  readyAt: Type.Union([DateTime, Type.Null()]),
  expiresAt: Type.Union([DateTime, Type.Null()]),
});
export type DataExport = Type.Static<typeof DataExport>;

/** What the card shows: the latest export still of use (preparing, or ready and not expired) and the next chance. */
export const DataExportStatus = Type.Object({
  latest: Type.Union([DataExport, Type.Null()]),
  /** When the person may ask for the next one; null: now. */
  nextAllowedAt: Type.Union([DateTime, Type.Null()]),
  /** `external`: an external Keycloak keeps the sign-in, the portal asks no password (it has none to check). */
  provider: Type.Enum(['embedded', 'external'] as const),
});
export type DataExportStatus = Type.Static<typeof DataExportStatus>;

/** The current password, asked again; with an external Keycloak there is none to give. */
export const DataExportBody = Type.Object(
  { password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })) },
  { additionalProperties: false },
);
export type DataExportBody = Type.Static<typeof DataExportBody>;

/** Stable error code: a second export within DATA_EXPORT_EVERY_HOURS (429, `details.fields.retryAt`). */
export const DATA_EXPORT_TOO_SOON = 'DATA_EXPORT_TOO_SOON';

/**
 * With an external Keycloak there is no password to ask again: the export asks for a sign-in no older than this
 * many seconds instead (the access token's `auth_time`); an older one, or none, is 403 `REAUTHENTICATION_REQUIRED`.
 */
export const DATA_EXPORT_REAUTH_SECONDS = 300;
export const REAUTHENTICATION_REQUIRED = 'REAUTHENTICATION_REQUIRED';

/** What the deletion of the login would do, shown before it is asked for. */
export const LoginDeletionPreview = Type.Object({
  provider: Type.Enum(['embedded', 'external'] as const),
  /** With an external Keycloak: its account console, where the login itself is deleted. */
  accountConsoleUrl: Type.Union([Type.String(), Type.Null()]),
  /** The accounts the person is the only owner of: the deletion is refused until each has another owner. */
  soleOwnerOf: Type.Array(Type.Object({ uuid: Uuid, name: Type.String() })),
  /** The accounts whose membership ends (pending invitations not counted). */
  memberships: Type.Array(Type.Object({ uuid: Uuid, name: Type.String(), role: Type.String() })),
  /** The address to type as the confirmation. */
  email: Type.String(),
});
export type LoginDeletionPreview = Type.Static<typeof LoginDeletionPreview>;

/** The current password and the person's email address typed again (compared without regard to case). */
export const LoginDeletionBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    confirmation: Type.String({ minLength: 1, maxLength: 320 }),
  },
  { additionalProperties: false },
);
export type LoginDeletionBody = Type.Static<typeof LoginDeletionBody>;

/**
 * Stable error codes of the deletion: 409 `SOLE_OWNER` (`details.fields.accounts` names them, comma-separated
 * uuids), 409 `SIGN_IN_MANAGED_EXTERNALLY`; a wrong password is 422 `{ password: 'wrongPassword' }`, a confirmation
 * that is not the address 422 `{ confirmation: 'mismatch' }`.
 */
export const SOLE_OWNER = 'SOLE_OWNER';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
};

export const myDataRoutes = {
  getDataExport: defineRoute({
    method: 'GET',
    path: '/users/v1/me/data-export',
    summary: "The signed-in person's latest export of their data and when the next may be asked for",
    tags: ['my-data'],
    response: { 200: Entity(DataExportStatus), 401: ErrorBody },
  }),
  requestDataExport: defineRoute({
    method: 'POST',
    path: '/users/v1/me/data-export',
    summary:
      'Ask for an export of the own data (a ZIP prepared by a job; the current password asked again, or with an external Keycloak a fresh sign-in)',
    tags: ['my-data'],
    body: DataExportBody,
    response: { 202: Entity(DataExport), ...errors },
  }),
  downloadDataExport: defineRoute({
    method: 'GET',
    path: '/users/v1/me/data-export/{id}/file',
    summary: 'Download a prepared export of the own data as a ZIP (only the person, until it expires)',
    tags: ['my-data'],
    params: UuidParams,
    response: { 200: FileBytes, 401: ErrorBody, 404: ErrorBody },
  }),
  getLoginDeletion: defineRoute({
    method: 'GET',
    path: '/users/v1/me/deletion',
    summary: 'What deleting the own login would do, and what stands in its way',
    tags: ['my-data'],
    response: { 200: Entity(LoginDeletionPreview), 401: ErrorBody },
  }),
  deleteLogin: defineRoute({
    method: 'POST',
    path: '/users/v1/me/deletion',
    summary: 'Delete the own login: memberships end, every session ends, the identity goes',
    tags: ['my-data'],
    body: LoginDeletionBody,
    response: { 204: Type.Null(), ...errors },
  }),
};
