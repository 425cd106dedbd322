/** A location without its state: what a link or the address names. */
export interface Path {
  pathname: string;
  /** "" or "?…" */
  search: string;
  /** "" or "#…" */
  hash: string;
}

/** An entry of the history: its path, the state it was pushed with and a key of its own. */
export interface Location extends Path {
  state: unknown;
  /** "default" for the entry the app started on, else random: a new entry renders its page afresh. */
  key: string;
}

export type To = string | Partial<Path>;

/** How the location shown was reached: POP for the first one, back, forward and a revalidation. */
export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

/**
 * The browser's history (or a memory one in tests), as the navigation controller (navigation.ts) uses it: push and
 * replace write an entry without telling the listener; `go` (and the browser's back and forward) tell it.
 */
export interface NavigationHistory {
  readonly location: Location;
  push(to: To, state?: unknown): void;
  replace(to: To, state?: unknown): void;
  go(delta: number): void;
  listen(listener: (update: { location: Location }) => void): () => void;
  createHref(to: To): string;
  createURL(to: To): URL;
}

/** "/a?b#c" → its parts; "?" and "#" alone are empty. */
export function parsePath(path: string): Partial<Path> {
  const parsed: Partial<Path> = {};
  let rest = path;
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    parsed.hash = normalise(rest.slice(hashAt));
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    parsed.search = normalise(rest.slice(searchAt));
    rest = rest.slice(0, searchAt);
  }
  if (rest) parsed.pathname = rest;
  return parsed;
}

const normalise = (part: string) => (part.length > 1 ? part : '');

export function createPath({ pathname = '/', search = '', hash = '' }: Partial<Path>): string {
  return `${pathname}${normalise(search)}${normalise(hash)}`;
}

const randomKey = () => Math.random().toString(36).slice(2, 10);

function toLocation(to: To, state: unknown, key: string, from = '/'): Location {
  const path = typeof to === 'string' ? parsePath(to) : to;
  return { pathname: from, search: '', hash: '', ...path, state, key };
}

/**
 * The browser's history. An entry's state is kept as `{ usr, key, idx }`, as React Router's history kept it, so
 * the entries of a tab opened before still carry their state and key.
 */
export function createBrowserHistory(win: Window = window): NavigationHistory {
  const browser = win.history;
  const current = (): Location => {
    const { pathname, search, hash } = win.location;
    const entry = browser.state as { usr?: unknown; key?: string } | null;
    return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
  };
  const index = () => (browser.state as { idx?: number } | null)?.idx ?? 0;
  if ((browser.state as { idx?: number } | null)?.idx == null)
    browser.replaceState({ ...(browser.state as object | null), idx: 0 }, '');
  const createHref = (to: To) => (typeof to === 'string' ? to : createPath(to));
  const write = (method: 'pushState' | 'replaceState', idx: number, to: To, state: unknown) => {
    const location = toLocation(to, state, randomKey(), win.location.pathname);
    const url = createHref(location);
    try {
      browser[method]({ usr: location.state, key: location.key, idx }, '', url);
    } catch (error) {
      // A state the browser cannot clone is the app's error; a full history (iOS' 100 entries) loads the page.
      if (error instanceof DOMException && error.name === 'DataCloneError') throw error;
      win.location.assign(url);
    }
  };
  return {
    get location() {
      return current();
    },
    push: (to, state = null) => write('pushState', index() + 1, to, state),
    replace: (to, state = null) => write('replaceState', index(), to, state),
    go: (delta) => browser.go(delta),
    listen(listener) {
      const onPop = () => listener({ location: current() });
      win.addEventListener('popstate', onPop);
      return () => win.removeEventListener('popstate', onPop);
    },
    createHref,
    createURL: (to) => {
      const base = win.location.origin === 'null' ? win.location.href : win.location.origin;
      return new URL(createHref(to).replace(/ $/, '%20'), base);
    },
  };
}

/**
 * A history in memory (tests): its entries, the first one's key "default", the last one current unless
 * `initialIndex` says; `go` tells the listener at once.
 */
export function createMemoryHistory({
  initialEntries = ['/'],
  initialIndex,
}: { initialEntries?: string[]; initialIndex?: number } = {}): NavigationHistory & {
  readonly index: number;
} {
  const entries = initialEntries.map((entry, i) =>
    toLocation(entry, null, i === 0 ? 'default' : randomKey()),
  );
  let index = initialIndex ?? entries.length - 1;
  let listener: ((update: { location: Location }) => void) | null = null;
  const createHref = (to: To) => (typeof to === 'string' ? to : createPath(to));
  return {
    get location() {
      return entries[index]!;
    },
    get index() {
      return index;
    },
    push(to, state = null) {
      index += 1;
      entries.splice(index, entries.length, toLocation(to, state, randomKey(), entries[index - 1]!.pathname));
    },
    replace(to, state = null) {
      entries[index] = toLocation(to, state, randomKey(), entries[index]!.pathname);
    },
    go(delta) {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      listener?.({ location: entries[index]! });
    },
    listen(next) {
      listener = next;
      return () => {
        listener = null;
      };
    },
    createHref,
    createURL: (to) => new URL(createHref(to), 'http://localhost'),
  };
}
