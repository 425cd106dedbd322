// Page tests answer the app's API calls themselves: a file calls `mockApi()` once at its top and says what
// `apiRequest` answers (the client's `apiRequest` hands each call to it during the file's tests, decision 246); the
// rest of the client stays real. No file replaces the client module (`vi.mock`), so a file that replaces nothing
// else shares its worker's modules.
import { afterEach, beforeEach, vi } from 'vitest';
import { answerInTests, type ApiFile } from '@/api/client.ts';

export const apiRequest = vi.fn();

/**
 * During each test of the calling file, `apiRequest` (reset before each test) answers the app's requests, and `file`
 * its files when given (else the network does).
 */
export function mockApi(answers: { file?: (...args: unknown[]) => Promise<ApiFile> } = {}): void {
  beforeEach(() => {
    apiRequest.mockReset();
    answerInTests({ request: (...args) => apiRequest(...args), file: answers.file });
  });
  afterEach(() => answerInTests({}));
}
