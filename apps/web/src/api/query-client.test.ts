import { afterEach, describe, expect, it } from 'vitest';
import { dismissToast, getToasts } from '@/ui/toast-store.ts';
import { ApiError } from './errors.ts';
import { createQueryClient, shouldToastError } from './query-client.ts';

describe('error toasts', () => {
  afterEach(() => getToasts().forEach((toast) => dismissToast(toast.id)));

  it('toasts HTTP errors with the response message', () => {
    expect(shouldToastError(new ApiError(422, 'Ungültig', 'VALIDATION'), undefined)).toBe(true);
    expect(shouldToastError(new TypeError('Failed to fetch'), {})).toBe(true);
  });

  it('stays silent for 401, aborted requests and silent meta', () => {
    expect(shouldToastError(new ApiError(401, 'Unauthorized', 'UNAUTHORIZED'), undefined)).toBe(false);
    expect(shouldToastError(new DOMException('aborted', 'AbortError'), undefined)).toBe(false);
    expect(shouldToastError(new ApiError(500, 'x', 'X'), { silentError: true })).toBe(false);
  });

  it('shows a failed mutation as an error toast and a success message as a success toast', async () => {
    const client = createQueryClient();
    await client
      .getMutationCache()
      .build(client, {
        mutationFn: () => Promise.reject(new ApiError(409, 'Name bereits vergeben', 'CONFLICT')),
      })
      .execute(undefined)
      .catch(() => undefined);
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.resolve({ data: {}, message: 'Gespeichert' }) })
      .execute(undefined);
    expect(getToasts().map((t) => [t.type, t.message, t.timeout])).toEqual([
      ['error', 'Name bereits vergeben', 5000],
      ['success', 'Gespeichert', 5000],
    ]);
  });

  it('does not toast a silent mutation', async () => {
    const client = createQueryClient();
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(new Error('x')), meta: { silentError: true } })
      .execute(undefined)
      .catch(() => undefined);
    expect(getToasts()).toHaveLength(0);
  });
});
