import { ROUTES, type RouteName, type RouteTableRow } from './route-table.ts';

type PathOf<Name extends RouteName> = Extract<RouteTableRow, { name: Name }>['path'];

/** The parameters a path pattern names: `inbox/:uuid` → `{ uuid: string }`; `:uuid?` is optional. */
type ParamsOf<Path extends string> = Path extends `${infer Head}/${infer Tail}`
  ? ParamsOf<Head> & ParamsOf<Tail>
  : Path extends `:${infer Param}?`
    ? { [Key in Param]?: string }
    : Path extends `:${infer Param}`
      ? { [Key in Param]: string }
      : unknown;

export type RouteParams<Name extends RouteName> = ParamsOf<PathOf<Name>>;

/** Query parameters appended to the path; undefined ones are left out. */
export type Query = Record<string, string | undefined>;

type HrefArgs<Name extends RouteName> =
  // A route without required parameters takes none (or only optional ones).
  object extends RouteParams<Name>
    ? [params?: RouteParams<Name>, query?: Query]
    : [params: RouteParams<Name>, query?: Query];

const paths = new Map<string, string>(ROUTES.map((entry) => [entry.name, entry.path]));

/**
 * The link to an app route by its name, e.g. `href('inbox-item', { uuid })` → `/inbox/<uuid>`,
 * `href('dashboard', undefined, { uuid })` → `/?uuid=<uuid>`. Parameter values are URL-encoded; an optional
 * parameter left out drops its segment.
 */
export function href<Name extends RouteName>(name: Name, ...[params, query]: HrefArgs<Name>): string {
  const pattern = paths.get(name);
  if (pattern === undefined) throw new Error(`unknown route ${name}`);
  const values = (params ?? {}) as Record<string, string | undefined>;
  const path = pattern
    .split('/')
    .flatMap((segment) => {
      const param = /^:(\w+)(\?)?$/.exec(segment);
      if (!param) return [segment];
      const value = values[param[1]!];
      if (value === undefined) {
        if (param[2]) return [];
        throw new Error(`href('${name}'): missing parameter ${param[1]}`);
      }
      return [encodeURIComponent(value)];
    })
    .join('/');
  const search = new URLSearchParams(
    Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return `/${path}${search ? `?${search}` : ''}`;
}
