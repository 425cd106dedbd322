import { describe, expect, it } from 'vitest';
import type { RoutePreloads } from '@portal/contract';
import { languageOf, routePreloadHints } from './route-preloads.ts';

const preloads: RoutePreloads = {
  routes: [
    { path: '', files: ['assets/dashboard.js', 'assets/card.js'], areas: ['dashboard'] },
    { path: 'inbox/:uuid', files: ['assets/inbox-item.js'], areas: ['notifications'] },
    { path: 'provider/lessons/:lessonUuid', files: ['assets/lesson-editor.js'], areas: ['lessons'] },
    { path: 'provider/lessons/courses/:courseUuid/new', files: ['assets/new-lesson.js'], areas: ['lessons'] },
    { path: 'settings/user-management/user/:uuid?', files: ['assets/member.js'], areas: ['members'] },
    { path: 'settings/users', files: ['assets/users.js', 'assets/card.js'], areas: [] },
  ],
  texts: {
    de: {
      shell: ['assets/de-shell.js'],
      validation: ['assets/de-validation.js'],
      dashboard: ['assets/de-dash.js'],
    },
    fr: {
      shell: ['assets/fr-shell.js'],
      validation: ['assets/fr-validation.js'],
      dashboard: ['assets/fr-dash.js'],
    },
  },
};

const hrefs = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('route preload hints', () => {
  const hints = routePreloadHints(preloads);

  it("names the route's chunks, then the texts of the shell, of validation and of the route, in the language", () => {
    expect(hrefs(hints('/', 'fr'))).toEqual([
      '/assets/dashboard.js',
      '/assets/card.js',
      '/assets/fr-shell.js',
      '/assets/fr-validation.js',
      '/assets/fr-dash.js',
    ]);
    expect(hrefs(hints('/', 'de'))).toContain('/assets/de-dash.js');
  });

  it('matches parameters, optional ones and the most specific pattern; no file twice', () => {
    expect(hrefs(hints('/inbox/0b7d', 'de'))[0]).toBe('/assets/inbox-item.js');
    expect(hrefs(hints('/provider/lessons/courses/c1/new', 'de'))[0]).toBe('/assets/new-lesson.js');
    expect(hrefs(hints('/provider/lessons/l1', 'de'))[0]).toBe('/assets/lesson-editor.js');
    expect(hrefs(hints('/settings/user-management/user', 'de'))[0]).toBe('/assets/member.js');
    expect(hrefs(hints('/settings/user-management/user/u1', 'de'))[0]).toBe('/assets/member.js');
    expect(hrefs(hints('/settings/users/', 'de'))).toEqual([
      '/assets/users.js',
      '/assets/card.js',
      '/assets/de-shell.js',
      '/assets/de-validation.js',
    ]);
  });

  it("gives an address no route has, or one a segment too long, the shell's texts only", () => {
    for (const path of ['/nowhere', '/inbox/a/b', '/settings/user-management/user/u1/x']) {
      expect(hrefs(hints(path, 'de')), path).toEqual(['/assets/de-shell.js', '/assets/de-validation.js']);
    }
  });

  it('takes the cookie only when it names a language of the app', () => {
    expect(languageOf('fr', 'de')).toBe('fr');
    for (const cookie of [undefined, '', 'xx', 'fr"><script>', 'FR'])
      expect(languageOf(cookie, 'de')).toBe('de');
  });
});
