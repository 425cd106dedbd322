import type { Language, UserRole } from '@portal/contract';

/**
 * Demo-only password of every demo login (README says so); never used outside DEMO_DATA. It passes the password
 * policy for each of them (`password-policy.test.ts`): it names no demo login's address or name (portal-admin@).
 */
export const DEMO_PASSWORD = 'Muster-Demo-2026';

export interface DemoUser {
  /** Identity id in the embedded provider = token `sub` = users.subject. Fixed so seeds are idempotent. */
  id: string;
  email: string;
  name: string;
  userRole: UserRole;
  language: Language;
  emailVerified: boolean;
}

/** The demo logins (README "Demo logins"), one per role to try. Accounts and memberships are in accounts.ts. */
export const DEMO_USERS = {
  owner: {
    id: '6f1c2b1e-0001-4000-8000-000000000001',
    email: 'owner@example.com',
    name: 'Olivia Owner',
    userRole: 'STANDARD',
    language: 'de',
    emailVerified: true,
  },
  admin: {
    id: '6f1c2b1e-0001-4000-8000-000000000002',
    email: 'admin@example.com',
    name: 'Adrian Admin',
    userRole: 'STANDARD',
    language: 'de',
    emailVerified: true,
  },
  employee: {
    id: '6f1c2b1e-0001-4000-8000-000000000003',
    email: 'employee@example.com',
    name: 'Emma Employee',
    userRole: 'STANDARD',
    language: 'de',
    emailVerified: true,
  },
  coach: {
    id: '6f1c2b1e-0001-4000-8000-000000000004',
    email: 'coach@example.com',
    name: 'Conrad Coach',
    userRole: 'DC',
    language: 'de',
    emailVerified: true,
  },
  inhaber: {
    id: '6f1c2b1e-0001-4000-8000-000000000005',
    email: 'inhaber@example.com',
    name: 'Isabelle Inhaber',
    userRole: 'STANDARD',
    language: 'fr',
    emailVerified: true,
  },
  newowner: {
    id: '6f1c2b1e-0001-4000-8000-000000000006',
    email: 'newowner@example.com',
    name: 'Nora Neu',
    userRole: 'STANDARD',
    language: 'de',
    emailVerified: true,
  },
  fresh: {
    id: '6f1c2b1e-0001-4000-8000-000000000007',
    email: 'fresh@example.com',
    name: 'Felix Frisch',
    userRole: 'STANDARD',
    language: 'de',
    emailVerified: true,
  },
  unverified: {
    id: '6f1c2b1e-0001-4000-8000-000000000008',
    email: 'unverified@example.com',
    name: 'Uma Unverified',
    userRole: 'STANDARD',
    language: 'en',
    emailVerified: false,
  },
  agent: {
    id: '6f1c2b1e-0001-4000-8000-000000000009',
    email: 'agent@example.com',
    name: 'Aaron Agent',
    userRole: 'SUPPORT_AGENT',
    language: 'de',
    emailVerified: true,
  },
  billing: {
    id: '6f1c2b1e-0001-4000-8000-000000000010',
    email: 'billing@example.com',
    name: 'Bettina Buchhaltung',
    userRole: 'SUPPORT_MANAGER',
    language: 'de',
    emailVerified: true,
  },
  portalAdmin: {
    id: '6f1c2b1e-0001-4000-8000-000000000011',
    email: 'portal-admin@example.com',
    name: 'Paula Portal',
    userRole: 'PORTAL_ADMIN',
    language: 'de',
    emailVerified: true,
  },
  teacher: {
    id: '6f1c2b1e-0001-4000-8000-000000000012',
    email: 'teacher@example.com',
    name: 'Tobias Lehrer',
    userRole: 'TEACHER',
    language: 'de',
    emailVerified: true,
  },
} as const satisfies Record<string, DemoUser>;

/** The name of a demo login (`owner`, `employee`…). */
export type DemoLogin = keyof typeof DEMO_USERS;

/** Fixed account ids, so links in docs and tests stay stable. */
export const DEMO_ACCOUNTS = {
  muster: '6f1c2b1e-0002-4000-8000-000000000001',
  beispiel: '6f1c2b1e-0002-4000-8000-000000000002',
  neu: '6f1c2b1e-0002-4000-8000-000000000003',
} as const;

/** Their names (accounts.ts seeds them; the journeys find them on screen). */
export const DEMO_ACCOUNT_NAMES = {
  muster: 'Muster AG',
  beispiel: 'Beispiel GmbH',
  neu: 'Neu Sàrl',
} as const satisfies Record<keyof typeof DEMO_ACCOUNTS, string>;
