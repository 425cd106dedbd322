/**
 * Inactivity: after 30 minutes without activity a 1-minute countdown starts; when
 * it ends the session is over. Activity (pointer, keyboard, wheel, touch, focus) counts across the site's tabs.
 */
export const IDLE_MS = 30 * 60_000;
export const COUNTDOWN_MS = 60_000;

export type IdlePhase = { kind: 'active' } | { kind: 'countdown'; secondsLeft: number } | { kind: 'expired' };

/** The phase at `now` for the last activity seen in any tab. */
export function idlePhase(lastActivity: number, now: number): IdlePhase {
  const idle = now - lastActivity;
  if (idle < IDLE_MS) return { kind: 'active' };
  if (idle < IDLE_MS + COUNTDOWN_MS)
    return { kind: 'countdown', secondsLeft: Math.ceil((IDLE_MS + COUNTDOWN_MS - idle) / 1000) };
  return { kind: 'expired' };
}

const CHANNEL = 'portal-activity';
const STORAGE_KEY = 'portal-lastActivity';
const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'focus'] as const;
/** Activity is shared at most this often; the countdown has a one-second resolution anyway. */
const SHARE_EVERY_MS = 5_000;

export interface IdleTracker {
  lastActivity(): number;
  /** "Stay logged in": counts as activity even while the countdown runs. */
  stay(): void;
  stop(): void;
}

/**
 * Tracks activity in this tab and others. While the countdown runs, only "Stay logged in" (here or in another
 * tab) resets it: moving the mouse does not dismiss the modal.
 */
export function startIdleTracker(now: () => number = Date.now): IdleTracker {
  const stored = Number(localStorage.getItem(STORAGE_KEY));
  let last = Number.isFinite(stored) && stored > now() - IDLE_MS ? Math.max(stored, now()) : now();
  let lastShared = 0;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;

  const share = (at: number, stay: boolean) => {
    lastShared = at;
    localStorage.setItem(STORAGE_KEY, String(at));
    channel?.postMessage({ at, stay });
  };
  const record = (at: number, stay: boolean) => {
    if (!stay && idlePhase(last, at).kind !== 'active') return;
    last = Math.max(last, at);
    if (stay || at - lastShared >= SHARE_EVERY_MS) share(at, stay);
  };
  const onActivity = () => record(now(), false);
  const onMessage = (event: MessageEvent<{ at: number; stay: boolean }>) => {
    const { at, stay } = event.data;
    if (stay || idlePhase(last, now()).kind === 'active') last = Math.max(last, at);
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY || channel) return;
    const at = Number(event.newValue);
    if (Number.isFinite(at) && idlePhase(last, now()).kind === 'active') last = Math.max(last, at);
  };

  for (const name of EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
  channel?.addEventListener('message', onMessage);
  window.addEventListener('storage', onStorage);
  share(last, false);

  return {
    lastActivity: () => last,
    stay: () => record(now(), true),
    stop: () => {
      for (const name of EVENTS) window.removeEventListener(name, onActivity, { capture: true });
      channel?.close();
      window.removeEventListener('storage', onStorage);
    },
  };
}
