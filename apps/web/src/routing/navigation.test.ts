import { describe, expect, it } from 'vitest';
import { createMemoryHistory } from './history.ts';
import { RENDER, createNavigation, shownHref, type GuardOutcome, type Navigation } from './navigation.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A guard whose answers the test gives, one per call, in the order of the calls. */
function heldGuard() {
  const calls: { href: string; answer: ReturnType<typeof deferred<GuardOutcome>> }[] = [];
  const guard = (url: URL) => {
    const answer = deferred<GuardOutcome>();
    calls.push({ href: `${url.pathname}${url.search}${url.hash}`, answer });
    return answer.promise;
  };
  return { calls, guard };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const shown = (navigation: Navigation) => shownHref(navigation.state);

function setup(entries: string[], options: Partial<Parameters<typeof createNavigation>[0]> = {}) {
  const history = createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1 });
  const held = heldGuard();
  const navigation = createNavigation({ history, guard: held.guard, ...options });
  return { history, navigation, calls: held.calls };
}

describe('navigation', () => {
  it('shows nothing until the first navigation passed the guard, then the location', async () => {
    const { navigation, calls } = setup(['/inbox']);
    await tick();
    expect(calls.map((call) => call.href)).toEqual(['/inbox']);
    expect(navigation.state.initialized).toBe(false);
    expect(shown(navigation)).toBeNull();
    calls[0]!.answer.resolve(RENDER);
    await tick();
    expect(shown(navigation)).toBe('/inbox');
  });

  it('keeps the location shown, pending, until the guard and the page are in; then pushes the new one', async () => {
    const page = deferred<void>();
    const { history, navigation, calls } = setup(['/'], {
      preparePage: (pathname) => (pathname === '/billing' ? page.promise : Promise.resolve()),
    });
    calls[0]!.answer.resolve(RENDER);
    await tick();
    const done = navigation.navigate('/billing?page=2', { state: { from: 'test' } });
    expect(navigation.state.pending).toBe(true);
    await tick();
    calls[1]!.answer.resolve(RENDER);
    await tick();
    // The guard passed; the page's chunk is still loading.
    expect(shown(navigation)).toBe('/');
    expect(history.location.pathname).toBe('/');
    page.resolve();
    await done;
    expect(navigation.state.pending).toBe(false);
    expect(shown(navigation)).toBe('/billing?page=2');
    expect(navigation.state.location.state).toEqual({ from: 'test' });
    expect(navigation.state.historyAction).toBe('PUSH');
    expect(history.index).toBe(1);
  });

  it('drops a navigation a later one overtook', async () => {
    const { navigation, calls } = setup(['/']);
    calls[0]!.answer.resolve(RENDER);
    await tick();
    void navigation.navigate('/billing');
    const second = navigation.navigate('/inbox');
    await tick();
    calls[2]!.answer.resolve(RENDER);
    await second;
    // Its guard answering late, even with a redirect, changes nothing.
    calls[1]!.answer.resolve({ kind: 'redirect', to: '/accounts', replace: false });
    await tick();
    expect(calls).toHaveLength(3);
    expect(shown(navigation)).toBe('/inbox');
  });

  it('runs the guard again on a redirect, which pushes, or replaces when the guard or the navigation says so', async () => {
    const { history, navigation, calls } = setup(['/']);
    calls[0]!.answer.resolve(RENDER);
    await tick();

    void navigation.navigate('/billing');
    await tick();
    calls[1]!.answer.resolve({ kind: 'redirect', to: '/onboarding', replace: false });
    await tick();
    expect(calls[2]!.href).toBe('/onboarding');
    calls[2]!.answer.resolve(RENDER);
    await tick();
    expect(shown(navigation)).toBe('/onboarding');
    expect(history.index).toBe(1);

    void navigation.navigate('/inbox');
    await tick();
    calls[3]!.answer.resolve({ kind: 'redirect', to: '/accounts', replace: true });
    await tick();
    calls[4]!.answer.resolve(RENDER);
    await tick();
    expect(shown(navigation)).toBe('/accounts');
    expect(navigation.state.historyAction).toBe('REPLACE');
    expect(history.index).toBe(1);

    void navigation.navigate('/logs', { replace: true });
    await tick();
    calls[5]!.answer.resolve({ kind: 'redirect', to: '/404', replace: false });
    await tick();
    calls[6]!.answer.resolve(RENDER);
    await tick();
    expect(shown(navigation)).toBe('/404');
    expect(history.index).toBe(1);
  });

  it('guards the way back too; the history is already there, so nothing is written', async () => {
    const { history, navigation, calls } = setup(['/inbox', '/billing']);
    calls[0]!.answer.resolve(RENDER);
    await tick();
    void navigation.navigate(-1);
    await tick();
    expect(calls[1]!.href).toBe('/inbox');
    expect(shown(navigation)).toBe('/billing');
    calls[1]!.answer.resolve(RENDER);
    await tick();
    expect(shown(navigation)).toBe('/inbox');
    expect(navigation.state.historyAction).toBe('POP');
    expect(history.index).toBe(0);
  });

  it('shows a failed guard in place of everything, and a failed page load in its place; the retry asks again', async () => {
    const { history, navigation, calls } = setup(['/'], {
      preparePage: (pathname) =>
        pathname === '/logs' ? Promise.reject(new Error('chunk')) : Promise.resolve(),
    });
    calls[0]!.answer.reject(new Error('down'));
    await tick();
    expect(navigation.state.initialized).toBe(true);
    expect(navigation.state.error).toEqual({ at: 'root', error: new Error('down') });
    // No page is shown: the guard treats the next navigation as the first one.
    expect(shown(navigation)).toBeNull();

    const retried = navigation.revalidate();
    await tick();
    calls[1]!.answer.resolve(RENDER);
    await retried;
    expect(navigation.state.error).toBeNull();
    expect(shown(navigation)).toBe('/');
    expect(navigation.state.historyAction).toBe('POP');

    const failed = navigation.navigate('/logs');
    await tick();
    calls[2]!.answer.resolve(RENDER);
    await failed;
    expect(shown(navigation)).toBe('/logs');
    expect(navigation.state.error).toEqual({ at: 'page', error: new Error('chunk') });
    // A retry stays where it is: no entry written, the last action kept.
    const again = navigation.revalidate();
    await tick();
    calls[3]!.answer.resolve(RENDER);
    await again;
    expect(navigation.state.historyAction).toBe('PUSH');
    expect(history.index).toBe(1);
  });

  it('takes a change of the fragment alone at once, without the guard', async () => {
    const { navigation, calls } = setup(['/inbox']);
    calls[0]!.answer.resolve(RENDER);
    await tick();
    await navigation.navigate('/inbox#main');
    expect(calls).toHaveLength(1);
    expect(shown(navigation)).toBe('/inbox#main');
    void navigation.navigate('/inbox?x=1');
    await tick();
    expect(calls).toHaveLength(2);
  });

  it('commits at once without a guard or a page to wait for', () => {
    const navigation = createNavigation({ history: createMemoryHistory({ initialEntries: ['/a'] }) });
    expect(shown(navigation)).toBe('/a');
    void navigation.navigate({ pathname: '/b', search: '', hash: '' });
    expect(shown(navigation)).toBe('/b');
  });
});
