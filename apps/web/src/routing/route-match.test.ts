import { describe, expect, it } from 'vitest';
import { matchPath, rankByPattern } from './route-match.ts';

describe('matchPath', () => {
  it('matches as React Router did: case insensitive, a trailing slash allowed, parameters decoded', () => {
    expect(matchPath('/inbox/:uuid', '/Inbox/a1/')).toEqual({ uuid: 'a1' });
    expect(matchPath('/inbox/:uuid', '/inbox/caf%C3%A9')).toEqual({ uuid: 'café' });
    expect(matchPath('/inbox/:uuid', '/inbox/a%2Fb')).toEqual({ uuid: 'a/b' });
    expect(matchPath('/inbox/:uuid', '/inbox')).toBeNull();
    expect(matchPath('/inbox/:uuid', '/inbox/a/b')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/user/:uuid?', '/user')).toEqual({ uuid: undefined });
  });
});

describe('rankByPattern', () => {
  it('tries static segments before parameters, and optional segments as both patterns', () => {
    const ranked = rankByPattern(
      ['/support/ticket/:uuid', '/support/ticket/success', '/a/user/:uuid?', '/a/user/coach', '/'],
      (pattern) => pattern,
    ).map(({ pattern }) => pattern);
    expect(ranked.indexOf('/support/ticket/success')).toBeLessThan(ranked.indexOf('/support/ticket/:uuid'));
    expect(ranked.indexOf('/a/user/coach')).toBeLessThan(ranked.indexOf('/a/user/:uuid'));
    expect(ranked).toContain('/a/user');
    expect(ranked.at(-1)).toBe('/');
  });
});
