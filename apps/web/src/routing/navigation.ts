import {
  createPath,
  parsePath,
  type HistoryAction,
  type Location,
  type NavigationHistory,
  type Path,
  type To,
} from './history.ts';

/** What the guard decides for a location: render it, or send the navigation on (replacing the entry or not). */
export type GuardOutcome = { kind: 'render' } | { kind: 'redirect'; to: string; replace: boolean };

export const RENDER: GuardOutcome = { kind: 'render' };

export interface NavigationState {
  /** False until the first navigation has settled (the full-page loader shows meanwhile). */
  initialized: boolean;
  /** The location shown; before the first navigation settles, the one it is for. */
  location: Location;
  historyAction: HistoryAction;
  /** A navigation runs: the location shown stays until the guard and the page are in (the progress bar shows). */
  pending: boolean;
  /** What failed: the guard (shown instead of the shell) or the page's load (shown in the page's place). */
  error: { at: 'root' | 'page'; error: unknown } | null;
}

export interface NavigationOptions {
  history: NavigationHistory;
  /** Runs before every navigation (redirects included): renders the location, sends on, or throws. */
  guard?: (url: URL) => Promise<GuardOutcome>;
  /** Loads what the page at a path renders (its chunk and texts); starts beside the guard. */
  preparePage?: (pathname: string) => Promise<void>;
}

export interface Navigation {
  readonly state: NavigationState;
  subscribe(listener: () => void): () => void;
  /** Navigates like the data router's `navigate`: settles once the navigation (and its redirects) did. */
  navigate(to: To | number, options?: { replace?: boolean; state?: unknown }): Promise<void>;
  /** Runs the guard and the page's load again for the location shown (the error page's retry). */
  revalidate(): Promise<void>;
  dispose(): void;
}

/**
 * The app's navigation controller, in place of React Router's data router (decision 261): every navigation (a
 * link, `navigate`, the browser's back and forward, a redirect) first runs the guard, beside the page's chunk and
 * texts, and only then is committed, written to the history (push or replace) and rendered; the location shown
 * stays meanwhile, with `pending` set. The latest navigation wins: an earlier one still running is dropped. A
 * redirect starts a new navigation, guarded again: it replaces the entry when the guard says so or the navigation
 * was a replace, and pushes otherwise (the data router's `replace()` and `redirect()`). Starts at once with the
 * history's current location.
 */
export function createNavigation({ history, guard, preparePage }: NavigationOptions): Navigation {
  let state: NavigationState = {
    initialized: false,
    location: history.location,
    historyAction: 'POP',
    pending: false,
    error: null,
  };
  const listeners = new Set<() => void>();
  let latest = 0;

  const update = (next: Partial<NavigationState>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };

  /**
   * `action`: how the history takes the location once committed (POP: it is already there); `keepAction`: a
   * revalidation, which leaves the history and its last action as they are.
   */
  async function run(
    action: HistoryAction,
    target: Path & { state?: unknown },
    { replaceRedirects = false, keepAction = false } = {},
  ): Promise<void> {
    const id = ++latest;
    // Only the fragment changes (an anchor of the page): committed at once, without the guard, as the data router did.
    if (state.initialized && !keepAction && fragmentOnly(state.location, target))
      return commit(action, target, false, state.error);
    if (state.initialized) update({ pending: true });
    const page = preparePage?.(target.pathname).then(
      () => null,
      (error: unknown) => ({ error }),
    );
    // Without a guard or a page to wait for (tests), the navigation commits at once.
    let outcome = RENDER;
    if (guard) {
      try {
        outcome = await guard(history.createURL(target));
      } catch (error) {
        if (id === latest) commit(action, target, keepAction, { at: 'root', error });
        return;
      }
    }
    if (id !== latest) return;
    if (outcome.kind === 'redirect') {
      const push = !(outcome.replace || replaceRedirects);
      return run(push ? 'PUSH' : 'REPLACE', toPath(outcome.to));
    }
    const failed = page ? await page : null;
    if (id !== latest) return;
    commit(action, target, keepAction, failed && { at: 'page', error: failed.error });
  }

  function commit(
    action: HistoryAction,
    target: Path & { state?: unknown },
    keepAction: boolean,
    error: NavigationState['error'],
  ) {
    if (action === 'PUSH') history.push(target, target.state);
    else if (action === 'REPLACE') history.replace(target, target.state);
    update({
      initialized: true,
      location: action === 'POP' ? (target as Location) : history.location,
      historyAction: keepAction ? state.historyAction : action,
      pending: false,
      error,
    });
  }

  const navigate: Navigation['navigate'] = async (to, options = {}) => {
    if (typeof to === 'number') {
      history.go(to);
      return;
    }
    const target = { ...toPath(to), state: options.state ?? null };
    const replace = options.replace === true;
    await run(replace ? 'REPLACE' : 'PUSH', target, { replaceRedirects: replace });
  };

  // Links hand over paths from the root; a path without a pathname ("?a=1") stays on the current one.
  const toPath = (to: To): Path => {
    const path = typeof to === 'string' ? parsePath(to) : to;
    return {
      pathname: path.pathname ?? state.location.pathname,
      search: path.search ?? '',
      hash: path.hash ?? '',
    };
  };

  const unlisten = history.listen(({ location }) => void run('POP', location));
  void run('POP', history.location);

  return {
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate,
    revalidate: () => run('POP', state.location, { keepAction: true }),
    dispose: unlisten,
  };
}

/** The data router's `isHashChangeOnly`: the same path and query, and a fragment to go to. */
function fragmentOnly(from: Path, to: Path): boolean {
  if (from.pathname !== to.pathname || from.search !== to.search) return false;
  return to.hash !== '' || (from.hash !== '' && from.hash === to.hash);
}

/** The location shown, as the guard compares it ("path?query#hash"), or null while none is (first load, error page). */
export function shownHref(state: NavigationState): string | null {
  return state.initialized && state.error?.at !== 'root' ? createPath(state.location) : null;
}
