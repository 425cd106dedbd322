import Type from 'typebox';
import { defineRoute } from './route.ts';

/**
 * Public runtime configuration of the SPA. Served at GET /api/config and injected into index.html as
 * `<meta name="portal-config" content="…">`, which is what the SPA reads (no extra request at start).
 */
export const PublicConfig = Type.Object({
  productName: Type.String(),
  /** The primary colour (BRAND_COLOR, `#rrggbb`), the same in both themes; white text on it reaches 4.5:1. */
  brandColor: Type.String(),
  /** The logo's address on this server (`/brand/logo?v=…`, BRAND_LOGO), or null without one. */
  brandLogo: Type.Union([Type.String(), Type.Null()]),
  /** Full served version, 2.6.0+<build>; the same string as /version.json. */
  version: Type.String(),
  environment: Type.String(),
  /** Error reporting is on only when a DSN is configured. */
  sentryDsn: Type.Union([Type.String(), Type.Null()]),
  /** keycloak-js adapter settings: base URL, realm and client. */
  oidc: Type.Object({
    url: Type.String(),
    realm: Type.String(),
    clientId: Type.String(),
  }),
});
export type PublicConfig = Type.Static<typeof PublicConfig>;

export const configRoutes = {
  getConfig: defineRoute({
    method: 'GET',
    path: '/config',
    summary: 'Public runtime configuration of the web app',
    tags: ['config'],
    auth: false,
    response: { 200: PublicConfig },
  }),
};
