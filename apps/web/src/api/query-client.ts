import { MutationCache, QueryCache, QueryClient, type Mutation, type Query } from '@tanstack/react-query';
import { handleUnauthorized } from '@/auth/auth.ts';
import { toast } from '@/ui/toast-store.ts';
import { ApiError, isAbortError } from './errors.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /**
     * silentError: the caller shows the error itself. beforeSignIn: a load started with the saved token while the
     * sign-in check runs (app/early-session.ts); its 401 leaves the decision to that check.
     */
    queryMeta: { silentError?: boolean; beforeSignIn?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/**
 * Failed requests become error toasts with the response's message, except where the caller handles the error
 * itself (`meta.silentError`: the guard's loads, forms that show field errors), for aborted requests, and for
 * 401 (which leads to a new login instead).
 */
export function shouldToastError(error: unknown, meta: { silentError?: boolean } | undefined): boolean {
  if (meta?.silentError) return false;
  if (isAbortError(error)) return false;
  if (error instanceof ApiError && error.status === 401) return false;
  return true;
}

/** 401 leads to a new login (`onUnauthorized`), whoever asked, except before the sign-in check has decided. */
function errorHandler(onUnauthorized: () => void) {
  return (error: unknown, meta: { silentError?: boolean; beforeSignIn?: boolean } | undefined): void => {
    if (error instanceof ApiError && error.status === 401) {
      if (!meta?.beforeSignIn) onUnauthorized();
    } else if (shouldToastError(error, meta)) toast.error(errorMessage(error));
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function successMessage(data: unknown): string | null {
  const message = (data as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message ? message : null;
}

export function createQueryClient({ onUnauthorized = handleUnauthorized } = {}): QueryClient {
  const onError = errorHandler(onUnauthorized);
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error: Error, query: Query<unknown, unknown, unknown>) => onError(error, query.meta),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _result, mutation: Mutation<unknown, unknown, unknown>) =>
        onError(error, mutation.meta),
      // A successful change whose answer carries a message shows it as a success toast.
      onSuccess: (data) => {
        const message = successMessage(data);
        if (message) toast.success(message);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // Client errors will not change on retry; a network or server error gets one more chance.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}
