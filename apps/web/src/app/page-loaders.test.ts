import { describe, expect, it } from 'vitest';
import routeTableSource from './route-table.ts?raw';
import { PAGE_LOADERS, entryStepOf, pageLoaderOf } from './page-loaders.ts';
import { ROUTES } from './route-table.ts';

describe('page loaders', () => {
  it('name every route of the table and no other', () => {
    expect(Object.keys(PAGE_LOADERS).sort()).toEqual(ROUTES.map((entry) => entry.name).sort());
    const { maintenance: _left, ...withoutMaintenance } = PAGE_LOADERS;
    // @ts-expect-error: a map without one route's loader does not typecheck
    const incomplete: typeof PAGE_LOADERS = withoutMaintenance;
    expect(Object.keys(incomplete)).not.toContain('maintenance');
  });

  it('give every rendered route a page of its own', () => {
    // One page writes a new announcement and edits one: the same form, its route says which; so for a lesson.
    const sharing = new Set(['announcement-new', 'lesson-authoring-new']);
    const pages = ROUTES.flatMap((entry) => {
      const loader = pageLoaderOf(entry.name);
      return loader && !sharing.has(entry.name) ? [loader.page.toString()] : [];
    });
    expect(pages.length).toBeGreaterThan(30);
    expect(new Set(pages).size).toBe(pages.length);
  });

  it('hand path parameters as props only to pages whose path has some', () => {
    for (const entry of ROUTES) {
      if (pageLoaderOf(entry.name)?.paramsAsProps) expect(entry.path).toContain(':');
    }
  });

  it('run an entry step only for a route without a page', () => {
    expect(ROUTES.filter((entry) => entryStepOf(entry.name)).map((entry) => entry.name)).toEqual([
      'deepcloud-connect',
    ]);
  });

  // href reads the table and every page imports href: a page the table imported, even lazily, would close an
  // import circle through every page of the app.
  it('are the only way to the pages: the route table imports none', () => {
    expect(routeTableSource).not.toMatch(/import\(|@\/features\/|\.\.\/features\//);
  });
});
