import { useEffect, useRef } from 'react';
import { reauthenticate } from './auth.ts';

// With an external Keycloak the exports ask for a sign-in from the last minutes (403 REAUTHENTICATION_REQUIRED,
// decision 231). The page signs in again with prompt=login and, back on the same page, makes the request by
// itself, once. The mark is kept in sessionStorage because signing in leaves the page.
const PENDING = 'portal.reauthenticating.';

/** Marks `action` as waiting for a fresh sign-in and signs in again at the provider (the page leaves). */
export async function reauthenticateFor(action: string): Promise<void> {
  sessionStorage.setItem(PENDING + action, '1');
  await reauthenticate();
}

/** Back from signing in again for `action` (the page loaded with its mark set): `resume` runs once. */
export function useResumeAfterReauthentication(action: string, resume: () => void): void {
  const pending = useRef(sessionStorage.getItem(PENDING + action) !== null);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    sessionStorage.removeItem(PENDING + action);
    resume();
  });
}
