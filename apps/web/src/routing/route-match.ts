import { parse } from 'regexparam';
import { matchRoute as wouterMatch, type Parser } from 'wouter';

/** A path's segment decoded ("%C3%A4" → "ä"), an encoded slash kept: the path as React Router matched it. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

/** The last path decoded: every pattern is tried against the same one, one after the other. */
let decoded = { path: '', as: '' };
const decodedOnce = (path: string) => {
  if (decoded.path !== path) decoded = { path, as: decodePath(path) };
  return decoded.as;
};

/** Each pattern read once: every navigation tries the route table's patterns (a regular expression each) in turn. */
const readPatterns = new Map<string, ReturnType<Parser>>();

/**
 * How `<Router>` and matchRoute read a pattern (`/inbox/:uuid`, `/user/:uuid?`, `*`): wouter's (regexparam: case
 * insensitive, a trailing slash allowed), matched against the decoded path, as React Router did.
 */
export const parsePattern: Parser = (route, loose) => {
  const key = `${loose ? 'loose' : 'exact'} ${route}`;
  let read = readPatterns.get(key);
  if (!read) {
    const { keys, pattern } = parse(route, loose);
    read = { keys, pattern: { exec: (path: string) => pattern.exec(decodedOnce(path)) } };
    readPatterns.set(key, read);
  }
  return read;
};

export type RouteParams = Record<string, string | undefined>;

/** The named parameters (wouter adds the positional ones too), an encoded slash in a value decoded. */
export function namedParams(params: Readonly<Record<string | number, string | undefined>>): RouteParams {
  const named: RouteParams = {};
  for (const [key, value] of Object.entries(params))
    if (!/^\d+$/.test(key)) named[key] = value?.replace(/%2F/g, '/');
  return named;
}

/** The parameters of `pathname` for `pattern`, or null when it does not match. */
export function matchPath(pattern: string, pathname: string): RouteParams | null {
  const [matches, params] = wouterMatch(parsePattern, pattern, pathname);
  return matches ? namedParams(params) : null;
}

/** React Router's ranking of a pattern: a static segment weighs most, a parameter less, a splat least. */
function score(pattern: string): number {
  const segments = pattern.split('/');
  const splat = segments.includes('*');
  return segments
    .filter((segment) => segment !== '*')
    .reduce(
      (total, segment) => total + (segment.startsWith(':') ? 3 : segment === '' ? 1 : 10),
      segments.length + (splat ? -2 : 0),
    );
}

/** A pattern with optional segments as the patterns it stands for: `/a/:b?` → `/a/:b`, `/a`. */
function explode(pattern: string): string[] {
  const at = pattern.search(/\/[^/]+\?(?=\/|$)/);
  if (at < 0) return [pattern];
  const end = pattern.indexOf('?', at);
  const [head, tail] = [pattern.slice(0, at), pattern.slice(end + 1)];
  const segment = pattern.slice(at, end);
  return explode(tail).flatMap((rest) => [`${head}${segment}${rest}`, `${head}${rest}` || '/']);
}

/**
 * Items by their patterns in the order React Router tried them: the most specific first (`/support/ticket/success`
 * before `/support/ticket/:uuid`), equal ones in the given order; a pattern with optional segments as each pattern
 * it stands for. The first match in this order is the route, for the guard (matchRoute) and `<Switch>` alike.
 */
export function rankByPattern<T>(
  items: readonly T[],
  patternOf: (item: T) => string,
): { pattern: string; item: T }[] {
  return items
    .flatMap((item) => explode(patternOf(item)).map((pattern) => ({ pattern, item })))
    .map((ranked, order) => ({ ...ranked, order, score: score(ranked.pattern) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ pattern, item }) => ({ pattern, item }));
}
