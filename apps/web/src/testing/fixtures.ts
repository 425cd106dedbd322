// Test helper: a user and an account as the API returns them; each test overrides what it is about.
import type { Account, CompanyProfile, ShopState, TwoFactorPolicy, User } from '@portal/contract';

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

/** Muster AG's company profile, no logo. */
export function testCompanyProfile(extra: Partial<CompanyProfile> = {}): CompanyProfile {
  return {
    legalName: 'Muster AG',
    street: 'Bahnhofstrasse 10',
    postcode: '8001',
    city: 'Zürich',
    country: 'CH',
    uid: 'CHE-123.456.788',
    vatNumber: null,
    billingEmail: 'buchhaltung@example.com',
    phone: '+41 44 123 45 67',
    website: 'https://www.example.com',
    logo: null,
    updatedAt: '2026-11-01T10:00:00Z',
    ...extra,
  };
}

/** The two-factor rule switched off, with one member without a second factor. */
export function testTwoFactorPolicy(extra: Partial<TwoFactorPolicy> = {}): TwoFactorPolicy {
  return {
    enabled: false,
    enabledAt: null,
    enabledBy: null,
    graceDays: 7,
    graceUntil: null,
    provider: 'embedded',
    membersWithout: 1,
    ...extra,
  };
}

/** A connected shop that syncs products and orders every six hours and has not synced yet. */
export function testShopState(extra: Partial<NonNullable<ShopState['connection']>> = {}): ShopState {
  return {
    allowsLocalShops: false,
    connection: {
      url: 'https://shop.muster.ch',
      apiKeyLastFour: '7421',
      syncProducts: true,
      syncOrders: true,
      syncCustomers: false,
      interval: 'HOURS_6',
      enabled: true,
      updatedAt: '2026-11-20T10:00:00Z',
      nextSyncAt: null,
      lastSync: null,
      records: { products: 0, orders: 0, customers: 0 },
      ...extra,
    },
  };
}
