import { Suspense, useEffect, useRef, useState } from 'react';
import { endSessionInPlace } from '@/auth/auth.ts';
import { preloadable } from '@/ui/preloadable.tsx';
import { IDLE_MS, idlePhase, startIdleTracker, type IdlePhase, type IdleTracker } from '../idle.ts';

/** The dialog's chunk loads a minute before the countdown starts, so it shows on time even if the line is gone then. */
const PRELOAD_BEFORE_MS = 60_000;
const { Component: SessionExpiredDialog, preload: preloadSessionExpiredDialog } = preloadable(
  () => import('./session-expired-dialog.tsx'),
);
export { preloadSessionExpiredDialog };

function samePhase(a: IdlePhase, b: IdlePhase): boolean {
  if (a.kind === 'countdown' && b.kind === 'countdown') return a.secondsLeft === b.secondsLeft;
  return a.kind === b.kind;
}

/** Watches inactivity: after the idle time shows the countdown, then the logged-out modal. */
export function SessionExpiry() {
  const tracker = useRef<IdleTracker | null>(null);
  const [phase, setPhase] = useState<IdlePhase>({ kind: 'active' });

  useEffect(() => {
    const current = startIdleTracker();
    tracker.current = current;
    let expired = false;
    const tick = () => {
      if (expired) return;
      if (Date.now() - current.lastActivity() >= IDLE_MS - PRELOAD_BEFORE_MS)
        preloadSessionExpiredDialog().catch(() => undefined);
      const next = idlePhase(current.lastActivity(), Date.now());
      if (next.kind === 'expired') {
        expired = true;
        endSessionInPlace();
      }
      setPhase((previous) => (samePhase(previous, next) ? previous : next));
    };
    const timer = setInterval(tick, 1000);
    return () => {
      clearInterval(timer);
      current.stop();
    };
  }, []);

  if (phase.kind === 'active') return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiredDialog
        phase={phase}
        onStay={() => {
          tracker.current?.stay();
          setPhase({ kind: 'active' });
        }}
      />
    </Suspense>
  );
}
