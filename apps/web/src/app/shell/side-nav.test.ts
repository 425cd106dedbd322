import { describe, expect, it } from 'vitest';
import { visibleNavItems } from './side-nav.tsx';

const names = (groups: ReturnType<typeof visibleNavItems>) =>
  Object.fromEntries(Object.entries(groups).map(([group, items]) => [group, items.map((item) => item.name)]));

describe('side navigation', () => {
  it('shows an employee only what every role may open', () => {
    expect(names(visibleNavItems('EMPLOYEE', 'STANDARD', true))).toEqual({
      main: ['dashboard', 'inbox', 'support', 'logs', 'ncr-lesson-redirect'],
      settings: ['settings-users'],
      integrations: ['deepcloud', 'abaclik'],
      provider: [],
    });
  });

  it('adds billing, company and members for an admin, ownership for an owner', () => {
    const admin = names(visibleNavItems('ADMIN', 'STANDARD', true));
    expect(admin.main).toEqual([
      'dashboard',
      'inbox',
      'support',
      'billing',
      'subscriptions',
      'logs',
      'ncr-lesson-redirect',
    ]);
    expect(admin.settings).toEqual([
      'settings-company-profile',
      'settings-user-management',
      'settings-users',
    ]);
    expect(admin.integrations).toEqual(['deepcloud', 'abaclik', 'peppershop-config']);
    expect(names(visibleNavItems('OWNER', 'STANDARD', true)).settings).toContain('settings-ownership');
  });

  it('adds the support queue for staff, also without an account', () => {
    expect(names(visibleNavItems('SUPPORT', 'SUPPORT_AGENT', true)).main).toContain('support-queue');
    expect(names(visibleNavItems(null, 'SUPPORT', false)).main).toEqual(['support-queue']);
    // The provider's group: the directory for every staff role, announcements from SUPPORT_MANAGER on, courses
    // for TEACHER and PORTAL_ADMIN only.
    expect(names(visibleNavItems(null, 'SUPPORT', false)).provider).toEqual(['accounts-directory']);
    expect(names(visibleNavItems(null, 'SUPPORT_MANAGER', false)).provider).toEqual([
      'announcements',
      'accounts-directory',
    ]);
    expect(names(visibleNavItems(null, 'PORTAL_ADMIN', false)).provider).toEqual([
      'announcements',
      'accounts-directory',
      'lesson-authoring',
    ]);
    expect(names(visibleNavItems(null, 'TEACHER', false)).provider).toEqual(['lesson-authoring']);
    expect(names(visibleNavItems('OWNER', 'DC', true)).provider).toEqual([]);
    expect(names(visibleNavItems('OWNER', 'TEACHER', true)).main).not.toContain('support-queue');
  });

  it('shows a user without an account only their own settings', () => {
    expect(names(visibleNavItems(null, 'STANDARD', false))).toEqual({
      main: [],
      settings: ['settings-users'],
      integrations: [],
      provider: [],
    });
  });
});
