import { beforeEach, describe, expect, it } from 'vitest';
import {
  REQUESTED_LOCATION_KEY,
  saveRequestedLocation,
  stripLegacyPrefixes,
  takeRequestedLocation,
} from './requested-location.ts';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('requested location', () => {
  beforeEach(() => sessionStorage.clear());

  it.each([
    ['/billing', '/billing'],
    ['/v3/billing', '/billing'],
    ['/admin/billing', '/billing'],
    ['/v3/admin/settings/users', '/settings/users'],
    ['/admin/v3/x', '/v3/x'],
    ['/v3', '/'],
    ['/admin', '/'],
    ['/administration', '/administration'],
    ['/v30/billing', '/v30/billing'],
    ['/v3admin', '/v3admin'],
    ['/', '/'],
  ])('strips legacy prefixes from %s → %s', (input, expected) => {
    expect(stripLegacyPrefixes(input)).toBe(expected);
  });

  it('keeps the query and the hash', () => {
    saveRequestedLocation(at('/v3/inbox/42', '?a=1&b=2', '#top'));
    expect(sessionStorage.getItem(REQUESTED_LOCATION_KEY)).toBe('/inbox/42?a=1&b=2#top');
  });

  it.each(['/oauthcb', '/signup'])('does not save on %s', (pathname) => {
    sessionStorage.setItem(REQUESTED_LOCATION_KEY, '/billing');
    saveRequestedLocation(at(pathname, '?x=1'));
    expect(sessionStorage.getItem(REQUESTED_LOCATION_KEY)).toBe('/billing');
  });

  it('saves /oauthcbx, which is not the callback path', () => {
    saveRequestedLocation(at('/oauthcbx'));
    expect(sessionStorage.getItem(REQUESTED_LOCATION_KEY)).toBe('/oauthcbx');
  });

  it('returns the saved location once, then the dashboard', () => {
    sessionStorage.setItem(REQUESTED_LOCATION_KEY, '/billing?x=1#h');
    expect(takeRequestedLocation()).toBe('/billing?x=1#h');
    expect(sessionStorage.getItem(REQUESTED_LOCATION_KEY)).toBeNull();
    expect(takeRequestedLocation()).toBe('/');
  });

  it.each(['/oauthcb', '/oauthcb?code=1', '/signup#x', '//evil.example/x', 'https://evil.example/'])(
    'sends a saved %s to the dashboard',
    (saved) => {
      sessionStorage.setItem(REQUESTED_LOCATION_KEY, saved);
      expect(takeRequestedLocation()).toBe('/');
    },
  );
});
