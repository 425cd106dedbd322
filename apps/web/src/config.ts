import { DEFAULT_BRAND_COLOR, type PublicConfig } from '@portal/contract';

// The runtime configuration the server writes into index.html (`<meta name="portal-config">`), typed by the
// contract's PublicConfig (the same object GET /api/config answers with).
const DEFAULTS: PublicConfig = {
  productName: 'Portal',
  brandColor: DEFAULT_BRAND_COLOR,
  brandLogo: null,
  version: __APP_VERSION__,
  environment: 'prod',
  sentryDsn: null,
  oidc: { url: window.location.origin, realm: 'portal', clientId: 'portal' },
};

export function readConfig(doc: Document = document): PublicConfig {
  const content = doc.querySelector('meta[name="portal-config"]')?.getAttribute('content');
  if (!content) return DEFAULTS;
  const parsed = JSON.parse(content) as Partial<PublicConfig>;
  return { ...DEFAULTS, ...parsed, oidc: { ...DEFAULTS.oidc, ...parsed.oidc } };
}

let current: PublicConfig | null = null;

/** The configuration of this page load (read once). */
export function config(): PublicConfig {
  current ??= readConfig();
  return current;
}
