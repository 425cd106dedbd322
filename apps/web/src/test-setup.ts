import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

// Vitest runs without globals, so Testing Library cannot register its own cleanup. Spies are restored so
// that a test's spy never carries calls into the next one.
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
