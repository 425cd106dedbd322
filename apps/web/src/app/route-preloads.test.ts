import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { routePages } from '../../vite.config.ts';
import { PAGE_LOADERS } from './page-loaders.ts';
import { ROUTES } from './route-table.ts';

const source = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');

// The build reads the route table and the page loaders from their syntax, for the server's preload hints
// (decision 262): it must find every route, with what its loader loads.
it("reads every route's path, its page and what loads alongside, and its areas of texts from the sources", () => {
  const pages = routePages(source('./route-table.ts'), source('./page-loaders.ts'));
  expect(pages.map((page) => page.path)).toEqual(ROUTES.map((route) => route.path));
  ROUTES.forEach((route, index) => {
    const loader = PAGE_LOADERS[route.name];
    const page = pages[index]!;
    const hasPage = Boolean(loader && 'page' in loader);
    expect(page.modules.length, route.name).toBe(hasPage ? (loader && 'alongside' in loader ? 2 : 1) : 0);
    expect(page.areas, route.name).toEqual(loader && 'page' in loader ? loader.messages : []);
  });
  expect(pages.find((page) => page.path === '')).toEqual({
    path: '',
    modules: ['@/features/dashboard/dashboard-page.tsx'],
    areas: ['dashboard'],
  });
  expect(pages.find((page) => page.path === 'logs')?.modules).toEqual([
    '@/features/logs/logs-page.tsx',
    '@/features/logs/day-field.tsx',
  ]);
});
