import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ConfirmOptions } from './confirm-dialog.tsx';

export type { ConfirmOptions } from './confirm-dialog.tsx';

// The dialog (and MUI's modal machinery) loads with the first confirmation, not with the first page.
const ConfirmDialog = lazy(() => import('./confirm-dialog.tsx'));

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** Promise-based confirmation dialog used by every destructive action. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((value: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    setOptions(next);
    setOpen(true);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const close = useCallback((value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOpen(false);
  }, []);

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {options && (
        <Suspense fallback={null}>
          <ConfirmDialog open={open} options={options} onClose={close} />
        </Suspense>
      )}
    </ConfirmContext.Provider>
  );
}

/** `await confirm({ title, message, confirmLabel?, destructive? })` → true when the user confirmed. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs <ConfirmProvider>');
  return confirm;
}
