import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

// Cloud connection: an account's OAuth 2.0 connection (authorization code with PKCE) to the provider's cloud.
// The browser starts the flow and keeps the verifier per state; the server exchanges the code, keeps the tokens
// sealed, refreshes and revokes them, and reads the account's organisations from the cloud. No token ever leaves
// the server.

/** How long a connect attempt's stored state and verifier stay usable in the browser. */
export const CLOUD_CONNECT_STATE_TTL_MS = 60 * 60 * 1000;
/** The browser's key prefix for connect states in localStorage (one entry per state). */
export const CLOUD_CONNECT_STORAGE_PREFIX = 'deepcloud-connect:';
/** PKCE verifier: 43–128 characters of [A-Za-z0-9-._~] (RFC 7636). */
export const PKCE_VERIFIER_PATTERN = '^[A-Za-z0-9._~-]{43,128}$';
export const CLOUD_CODE_MAX = 2048;

/** What the browser needs to send a person to the cloud's sign-in: built by the server from the issuer's discovery. */
export const CloudAuthorization = Type.Object({
  authorizationEndpoint: Type.String(),
  clientId: Type.String(),
  /** Space-separated scopes to ask for. */
  scope: Type.String(),
  /** Where the cloud sends the browser back: the app's deepcloud/connect route. */
  redirectUri: Type.String(),
});
export type CloudAuthorization = Type.Static<typeof CloudAuthorization>;

export const CLOUD_CONNECTION_STATUSES = [
  /** Tokens are valid or can be refreshed. */
  'CONNECTED',
  /** The cloud refused the refresh token (revoked or expired there): an admin must connect again. */
  'NEEDS_RECONNECT',
] as const;
export type CloudConnectionStatus = (typeof CLOUD_CONNECTION_STATUSES)[number];

/** The account's one connection. Tokens are never part of it. */
export const CloudConnection = Type.Object({
  uuid: Uuid,
  status: Type.Enum(CLOUD_CONNECTION_STATUSES),
  /** The portal user who connected; null once that person is gone. */
  connectedBy: Type.Union([Type.Object({ uuid: Uuid, name: Type.String() }), Type.Null()]),
  connectedAt: DateTime,
  /** Who signed in at the cloud (from its ID token or userinfo). */
  cloudUser: Type.Object({
    subject: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  /** Scopes the cloud granted. */
  scopes: Type.Array(Type.String()),
  /** When the tokens were last obtained or refreshed. */
  refreshedAt: DateTime,
});
export type CloudConnection = Type.Static<typeof CloudConnection>;

/** The state of the cloud connection for the page: whether connecting is possible here, and the connection. */
export const CloudState = Type.Object({
  /** Null when no cloud is configured (nothing to connect to). */
  authorization: Type.Union([CloudAuthorization, Type.Null()]),
  connection: Type.Union([CloudConnection, Type.Null()]),
});
export type CloudState = Type.Static<typeof CloudState>;

/** The body the callback posts: the code from the cloud and the verifier stored for its state. */
export const CloudAuthBody = Type.Object(
  {
    pkceCodeVerifier: Type.String({ pattern: PKCE_VERIFIER_PATTERN }),
    code: Type.String({ minLength: 1, maxLength: CLOUD_CODE_MAX }),
  },
  { additionalProperties: false },
);
export type CloudAuthBody = Type.Static<typeof CloudAuthBody>;

/** An organisation of the cloud the connected person can reach. */
export const CloudOrganization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Swiss company number (CHE-…), when the cloud knows it. */
  uid: Type.Union([Type.String(), Type.Null()]),
  /** The connected person's role there, as the cloud names it. */
  role: Type.Union([Type.String(), Type.Null()]),
});
export type CloudOrganization = Type.Static<typeof CloudOrganization>;

export const CloudConnectionParams = Type.Object({ uuid: Uuid });

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const ADMIN = { min: 'ADMIN', denied: 'Connecting the cloud needs the ADMIN role' } as const;
const MEMBER = { min: 'EMPLOYEE' } as const;

export const deepcloudRoutes = {
  getCloudState: defineRoute({
    method: 'GET',
    path: '/deep-cloud/v1/connection',
    summary: "The account's cloud connection (without tokens) and what the browser needs to start connecting",
    tags: ['cloud'],
    accountScoped: true,
    accountRole: MEMBER,
    // 502: a cloud is configured but its discovery document cannot be read.
    response: { 200: Entity(CloudState), ...errors, 502: ErrorBody },
  }),
  connectCloud: defineRoute({
    method: 'POST',
    path: '/deep-cloud/v1/auth',
    summary:
      'Exchange the authorization code and PKCE verifier for tokens and store the connection (replaces an earlier one)',
    tags: ['cloud'],
    accountScoped: true,
    accountRole: ADMIN,
    body: CloudAuthBody,
    response: { 201: Entity(CloudConnection), ...errors, 409: ErrorBody, 422: ErrorBody, 502: ErrorBody },
  }),
  listCloudOrganizations: defineRoute({
    method: 'GET',
    path: '/deep-cloud/v1/organizations',
    summary:
      'The organisations of the cloud the connection reaches (cancelled at the cloud when the caller aborts)',
    tags: ['cloud'],
    accountScoped: true,
    accountRole: MEMBER,
    response: { 200: List(CloudOrganization), ...errors, 409: ErrorBody, 502: ErrorBody },
  }),
  disconnectCloud: defineRoute({
    method: 'DELETE',
    path: '/deep-cloud/v1/connection',
    summary: 'Revoke the tokens at the cloud and delete the connection',
    tags: ['cloud'],
    accountScoped: true,
    accountRole: ADMIN,
    response: { 204: Type.Null(), ...errors },
  }),
};
