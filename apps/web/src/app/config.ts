/** Runtime configuration the server writes into index.html (`<meta name="portal-config">`). */
export interface PortalConfig {
  productName: string;
  version: string;
  environment: string;
  sentryDsn: string | null;
  oidc: { url: string; realm: string; clientId: string };
}

const DEFAULTS: PortalConfig = {
  productName: 'Portal',
  version: __APP_VERSION__,
  environment: 'prod',
  sentryDsn: null,
  oidc: { url: window.location.origin, realm: 'portal', clientId: 'portal' },
};

export function readConfig(doc: Document = document): PortalConfig {
  const content = doc.querySelector('meta[name="portal-config"]')?.getAttribute('content');
  if (!content) return DEFAULTS;
  const parsed = JSON.parse(content) as Partial<PortalConfig>;
  return { ...DEFAULTS, ...parsed, oidc: { ...DEFAULTS.oidc, ...parsed.oidc } };
}

let current: PortalConfig | null = null;

/** The configuration of this page load (read once). */
export function config(): PortalConfig {
  current ??= readConfig();
  return current;
}
