/** Toasts live outside React so the query client and the version check can raise them too. */
export type ToastType = 'success' | 'error';

export interface Toast {
  id: number;
  /** Text shown as it is, or a message made by `later` (i18n/later.ts), translated when shown. */
  message: string;
  description?: string;
  type: ToastType;
  /** Milliseconds before it closes (5000 by default, for every type). */
  timeout: number;
}

export interface ToastOptions {
  description?: string;
  timeout?: number;
}

export const TOAST_TIMEOUT_MS = 5000;

type Listener = () => void;
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit() {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

export function showToast(message: string, type: ToastType = 'success', options: ToastOptions = {}): number {
  const id = nextId++;
  const timeout = options.timeout ?? TOAST_TIMEOUT_MS;
  // The same text twice in a row (e.g. two failing queries) shows once.
  const duplicate = toasts.find((toast) => toast.message === message && toast.type === type);
  if (duplicate) dismissToast(duplicate.id);
  toasts = [...toasts, { id, message, description: options.description, type, timeout }];
  if (timeout > 0)
    timers.set(
      id,
      setTimeout(() => dismissToast(id), timeout),
    );
  emit();
  return id;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

export const toast = {
  success: (message: string, options?: ToastOptions) => showToast(message, 'success', options),
  error: (message: string, options?: ToastOptions) => showToast(message, 'error', options),
};
