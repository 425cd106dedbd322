// Page tests answer the app's API calls themselves. Each mocks the one HTTP client with
//   vi.mock('@/api/client.ts', async (original) => (await import('@/testing/api-mock.ts')).mockedClient(original));
// (the factory imports this module itself: vi.mock runs before the test file's imports) and says what
// `apiRequest` answers; the rest of the client stays real.
import { vi } from 'vitest';
import type * as ClientModule from '@/api/client.ts';

export const apiRequest = vi.fn();

export async function mockedClient(original: () => Promise<unknown>): Promise<typeof ClientModule> {
  const client = (await original()) as typeof ClientModule;
  return { ...client, apiRequest: (...args: unknown[]) => apiRequest(...args) } as typeof ClientModule;
}
