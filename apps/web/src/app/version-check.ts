/** Version poll: /version.json every 30 s, the first call at once, never cached. */
export const BUILT_IN_VERSION = __APP_VERSION__;
export const VERSION_POLL_MS = 30_000;

export interface VersionState {
  newVersionAvailable: boolean;
  maintenance: boolean;
  /** True once a check has succeeded at least once. */
  checked: boolean;
}

let state: VersionState = { newVersionAvailable: false, maintenance: false, checked: false };
const listeners = new Set<() => void>();

function set(next: VersionState) {
  state = next;
  for (const listener of listeners) listener();
}

export function getVersionState(): VersionState {
  return state;
}

export function subscribeVersion(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * One check: a different version (build suffix included) or a failed check means a new version is available,
 * until a successful check with the same version; the maintenance flag is copied from each successful check only.
 */
export async function checkVersion(fetchImpl: typeof fetch = fetch): Promise<VersionState> {
  try {
    const response = await fetchImpl('/version.json', {
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`version check answered ${response.status}`);
    const body = (await response.json()) as { data?: { version?: unknown; maintenance?: unknown } };
    const version = body.data?.version;
    if (typeof version !== 'string') throw new Error('version check without a version');
    set({
      newVersionAvailable: version !== BUILT_IN_VERSION,
      maintenance: body.data?.maintenance === true,
      checked: true,
    });
  } catch {
    set({ ...state, newVersionAvailable: true });
  }
  return state;
}

export function startVersionPolling(fetchImpl: typeof fetch = fetch): () => void {
  void checkVersion(fetchImpl);
  const timer = setInterval(() => void checkVersion(fetchImpl), VERSION_POLL_MS);
  return () => clearInterval(timer);
}
