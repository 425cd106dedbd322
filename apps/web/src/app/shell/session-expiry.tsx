import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { endSessionInPlace } from '@/auth/auth.ts';
import { idlePhase, startIdleTracker, type IdlePhase, type IdleTracker } from '../idle.ts';

const SessionExpiredDialog = lazy(() => import('./session-expired-dialog.tsx'));

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
