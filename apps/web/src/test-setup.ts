import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor wait up to 5 s, not Testing Library's 1 s: the first import of a lazy part (the toasts, the
// bars, a dialog) is transformed on demand, which takes longer than a second on a busy 2-core machine.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup. Spies are restored so
// that a test's spy never carries calls into the next one.
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
