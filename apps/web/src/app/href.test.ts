import { describe, expect, it } from 'vitest';
import { href } from './href.ts';
import { ROUTES } from './route-table.ts';

describe('href', () => {
  it('builds a route path from its name', () => {
    expect(href('dashboard')).toBe('/');
    expect(href('settings-users')).toBe('/settings/users');
    expect(href('create-account')).toBe('/accounts/account');
  });

  it('fills and encodes path parameters', () => {
    expect(href('inbox-item', { uuid: 'n1' })).toBe('/inbox/n1');
    expect(href('ncr-lesson', { accountUuid: 'a b/c' })).toBe('/ncr/lesson/a%20b%2Fc');
  });

  it('drops an optional parameter left out', () => {
    expect(href('settings-user-management-form')).toBe('/settings/user-management/user');
    expect(href('settings-user-management-form', { uuid: 'm1' })).toBe('/settings/user-management/user/m1');
  });

  it('appends the query, leaving out undefined values', () => {
    expect(href('dashboard', undefined, { uuid: 'acc-1' })).toBe('/?uuid=acc-1');
    expect(href('404', undefined, { path: '/x?y=1', other: undefined })).toBe('/404?path=%2Fx%3Fy%3D1');
    expect(href('accounts', undefined, {})).toBe('/accounts');
  });

  it('refuses unknown routes and missing parameters, in the typecheck and at run time', () => {
    // @ts-expect-error: there is no such route
    expect(() => href('nope')).toThrow('unknown route');
    // @ts-expect-error: an inbox item needs its uuid
    expect(() => href('inbox-item')).toThrow('missing parameter uuid');
  });
});

describe('route table', () => {
  it('shows only routes without parameters in the navigation, each at its own position', () => {
    const nav = ROUTES.filter((entry) => entry.nav);
    expect(nav.filter((entry) => entry.path.includes(':'))).toEqual([]);
    const positions = nav.map((entry) => `${entry.nav!.group}:${entry.nav!.position}`);
    expect(new Set(positions).size).toBe(positions.length);
  });
});
