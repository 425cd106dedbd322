import { lazy, Suspense, useSyncExternalStore } from 'react';
import { getToasts, subscribeToasts, toast } from './toast-store.ts';

const ToastList = lazy(() => import('./toast-list.tsx'));

/** `{ success(message, opts?), error(message, opts?) }` — toasts bottom-right, 5000 ms by default. */
export function useToast(): typeof toast {
  return toast;
}

/** The toast area at the bottom right of the shell. */
export function ToastViewport() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToastList toasts={toasts} />
    </Suspense>
  );
}
