/** Counts sign-in start failures so repeated ones show an error page instead of redirecting forever. */
const KEY = 'kc-initFailures';
const WINDOW_MS = 60_000;

function read(storage: Storage): number[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((t): t is number => typeof t === 'number') : [];
  } catch {
    return [];
  }
}

/** Records a failure; returns how many happened within the last minute, this one included. */
export function recordInitFailure(now = Date.now(), storage: Storage = sessionStorage): number {
  const recent = [...read(storage).filter((t) => now - t < WINDOW_MS), now];
  storage.setItem(KEY, JSON.stringify(recent));
  return recent.length;
}

export function clearInitFailures(storage: Storage = sessionStorage): void {
  storage.removeItem(KEY);
}
