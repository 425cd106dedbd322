const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Query strings in both array styles the API accepts: GET and DELETE repeat the key (`a=1&a=2`),
 * other methods use brackets (`a[]=1&a[]=2`); both give `{ a: ['1', '2'] }`. A bracketed key is always a list.
 */
export function parseQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const list = name.endsWith('[]');
    const key = list ? name.slice(0, -2) : name;
    if (!key || UNSAFE_KEYS.has(key)) continue;
    const current = query[key];
    if (current === undefined) query[key] = list ? [value] : value;
    else query[key] = Array.isArray(current) ? [...current, value] : [current, value];
  }
  return query;
}
