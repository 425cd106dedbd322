import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRouter } from 'react-router';
import { MAINTENANCE_RETURN_KEY } from './guard.ts';
import { followMaintenance } from './router-effects.ts';
import { checkVersion } from './version-check.ts';

const versionDocument = (maintenance: boolean) => async () =>
  new Response(JSON.stringify({ data: { version: __APP_VERSION__, maintenance } }), { status: 200 });

function memoryRouter(path: string) {
  return createMemoryRouter(
    [
      { path: '/', element: null },
      { path: '/inbox', element: null },
      { path: '/maintenance', element: null },
    ],
    { initialEntries: [path] },
  );
}

afterEach(() => sessionStorage.clear());

describe('followMaintenance', () => {
  it('leaves /maintenance at once when the check answered before the router existed', async () => {
    await checkVersion(versionDocument(false));
    sessionStorage.setItem(MAINTENANCE_RETURN_KEY, '/inbox');
    const router = memoryRouter('/maintenance');
    const stop = followMaintenance(router);
    await expect.poll(() => router.state.location.pathname).toBe('/inbox');
    stop();
  });

  it('goes to /maintenance on a later check and back when it ends', async () => {
    await checkVersion(versionDocument(false));
    const router = memoryRouter('/inbox');
    const stop = followMaintenance(router);
    await checkVersion(versionDocument(true));
    await expect.poll(() => router.state.location.pathname).toBe('/maintenance');
    await checkVersion(versionDocument(false));
    await expect.poll(() => router.state.location.pathname).toBe('/inbox');
    stop();
  });
});
