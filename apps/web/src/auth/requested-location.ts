/** Where the user wanted to go before the sign-in round trip; after login the app continues there. */
export const REQUESTED_LOCATION_KEY = 'requestedLocation';
export const CALLBACK_PATH = '/oauthcb';
export const SIGNUP_PATH = '/signup';

export interface LocationLike {
  pathname: string;
  search: string;
  hash: string;
}

export function isAuthReturnPath(pathname: string): boolean {
  return pathname === CALLBACK_PATH || pathname === SIGNUP_PATH;
}

/** Strips a leading `/v3` segment, then a leading `/admin` segment; whole segments only. */
export function stripLegacyPrefixes(pathname: string): string {
  let path = pathname;
  for (const prefix of ['/v3', '/admin']) {
    if (path === prefix) path = '/';
    else if (path.startsWith(`${prefix}/`)) path = path.slice(prefix.length);
  }
  return path;
}

export function toRequestedLocation(location: LocationLike): string {
  return `${stripLegacyPrefixes(location.pathname)}${location.search}${location.hash}`;
}

/** Saves the current location before the identity provider is contacted; not on the callback or signup paths. */
export function saveRequestedLocation(location: LocationLike, storage: Storage = sessionStorage): void {
  if (isAuthReturnPath(location.pathname)) return;
  storage.setItem(REQUESTED_LOCATION_KEY, toRequestedLocation(location));
}

/** Where a saved location leads: itself, or the dashboard when none is saved, it is foreign or the callback path. */
export function resolveRequestedLocation(saved: string | null): string {
  if (!saved || !saved.startsWith('/') || saved.startsWith('//')) return '/';
  const pathname = saved.split(/[?#]/, 1)[0]!;
  if (isAuthReturnPath(pathname)) return '/';
  return saved;
}

/** The saved location, removed once read (it is used once). */
export function takeRequestedLocation(storage: Storage = sessionStorage): string {
  const saved = storage.getItem(REQUESTED_LOCATION_KEY);
  storage.removeItem(REQUESTED_LOCATION_KEY);
  return resolveRequestedLocation(saved);
}
