// Test helper: a user and an account as the API returns them; each test overrides what it is about.
import type { Account, User } from '@portal/contract';

export function testUser(extra: Partial<User> = {}): User {
  return {
    uuid: 'u1',
    email: 'owner@example.com',
    name: 'Olivia Owner',
    userRole: 'STANDARD',
    language: 'de',
    emailVerified: true,
    createdAt: '2026-01-01T00:00:00Z',
    ...extra,
  };
}

/** An accepted employee membership with both terms accepted; the name is the uuid unless given. */
export function testAccount(uuid: string, extra: Partial<Account> = {}): Account {
  return {
    uuid,
    name: uuid,
    country: 'CH',
    preferredLanguage: 'de',
    accountRole: 'EMPLOYEE',
    isOwner: false,
    invitationStatus: 'ACCEPTED',
    availableUntil: null,
    acceptedAgb: true,
    acceptedPrivacyPolicy: true,
    createdAt: '2026-01-01T00:00:00Z',
    ...extra,
  };
}
