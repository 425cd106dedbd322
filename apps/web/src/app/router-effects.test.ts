import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/i18n/i18n.ts';
import { createMemoryHistory } from '@/routing/history.ts';
import { MAINTENANCE_RETURN_KEY } from './guard.ts';
import { createNavigation } from '@/routing/navigation.ts';
import { followMaintenance, syncDocumentTitle } from './router-effects.ts';
import { checkVersion } from './version-check.ts';

const versionDocument = (maintenance: boolean) => async () =>
  new Response(JSON.stringify({ data: { version: __APP_VERSION__, maintenance } }), { status: 200 });

function memoryRouter(path: string) {
  return createNavigation({ history: createMemoryHistory({ initialEntries: [path] }) });
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

describe('syncDocumentTitle', () => {
  it('names the page shown, and follows the navigation once it is committed', async () => {
    // The title's key stands for its text.
    const t = vi.spyOn(i18n, 't').mockImplementation(((key: string) => key) as never);
    const navigation = memoryRouter('/inbox');
    const stop = syncDocumentTitle(navigation);
    expect(document.title).toBe('routes.inbox | Portal');
    await navigation.navigate('/logs');
    expect(document.title).toBe('routes.logs | Portal');
    stop();
    t.mockRestore();
  });
});
