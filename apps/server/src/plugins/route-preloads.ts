import { isLanguage, type Language, type RoutePreloads } from '@portal/contract';

/** A route of the web app's table, ready to match: its path's segments, and how specific it is. */
interface Route {
  segments: string[];
  /** Static segments count most, so `provider/lessons/courses/:id/new` wins over a pattern with more parameters. */
  rank: number;
  files: string[];
  areas: string[];
}

/**
 * `:name` takes one segment, `:name?` one or none, `*` the rest: the route table's syntax, which the web app's
 * router (wouter's regexparam, decision 267) reads the same.
 */
function matches(pattern: string[], segments: string[]): boolean {
  let at = 0;
  for (const part of pattern) {
    if (part === '*') return true;
    const segment = segments[at];
    if (part.startsWith(':')) {
      if (segment === undefined) {
        if (part.endsWith('?')) continue;
        return false;
      }
      at += 1;
    } else if (segment === part) at += 1;
    else return false;
  }
  return at === segments.length;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/**
 * The `modulepreload` hints for an address of the web app: the chunks of the route it opens and the texts it shows
 * in the language the browser used last (the shell's and the validation messages' included), as `<link>` tags for
 * index.html's head. The browser then fetches them beside the app's code instead of after it has run, one round trip
 * sooner on a slow line (decision 262). An address no route matches gets the shell's texts only.
 */
export function routePreloadHints(preloads: RoutePreloads): (path: string, language: Language) => string {
  const routes: Route[] = preloads.routes
    .map((route) => {
      const segments = segmentsOf(route.path);
      const fixed = segments.filter((part) => !part.startsWith(':') && part !== '*').length;
      return { segments, rank: fixed * 100 - segments.length, files: route.files, areas: route.areas };
    })
    .sort((one, other) => other.rank - one.rank);
  return (path, language) => {
    const segments = segmentsOf(path);
    const route = routes.find((candidate) => matches(candidate.segments, segments));
    const texts = preloads.texts[language] ?? {};
    const files = [
      ...(route?.files ?? []),
      ...['shell', 'validation', ...(route?.areas ?? [])].flatMap((area) => texts[area] ?? []),
    ];
    return [...new Set(files)]
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
  };
}

/** The language cookie's value when it names one of the app's, else the default one. */
export const languageOf = (cookie: string | undefined, fallback: Language): Language =>
  isLanguage(cookie) ? cookie : fallback;
