// One rule for the account id on the web: an account-scoped query names its account in its key and in its URL, the
// same value. This test renders pages of several areas for one account, switches the current account and renders
// them again with the same query client (the cache of the first account still in it, and this tab's stored account
// still the first): every page must show the second account's answer, never the first's.
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { Account, Member, SupportTicket } from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { accountQueryClient } from '@/testing/account-query-client.ts';
import {
  testAccount,
  testCompanyProfile,
  testShopState,
  testTwoFactorPolicy,
  testUser,
} from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import CompanyProfilePage from '@/features/company/company-profile-page.tsx';
import UserManagementPage from '@/features/members/user-management-page.tsx';
import ShopConfigPage from '@/features/peppershop/shop-config-page.tsx';
import SupportPage from '@/features/support/support-page.tsx';

const ALPHA = testAccount('a-alpha', { name: 'Alpha AG', accountRole: 'ADMIN' });
const BETA = testAccount('b-beta', { name: 'Beta AG', accountRole: 'ADMIN' });
/** Each account's own word in its answers: the legal name, the shop's host, a member's name, a ticket's subject. */
const WORD: Record<string, string> = { [ALPHA.uuid]: 'alpha', [BETA.uuid]: 'beta' };

const POLICY = testTwoFactorPolicy({ membersWithout: 0 });

const profile = (word: string) =>
  testCompanyProfile({
    legalName: `${word} company`,
    uid: null,
    billingEmail: null,
    phone: null,
    website: null,
  });

const shop = (word: string) => testShopState({ url: `https://${word}.shop.ch` });

function member(word: string): Member {
  return {
    id: `m-${word}`,
    kind: 'MEMBER',
    name: `${word} member`,
    email: `${word}@example.com`,
    role: 'EMPLOYEE',
    status: 'ACCEPTED',
    invitedBy: null,
    invitedAt: '2026-01-01T10:00:00.000Z',
    expiresAt: null,
    lastSignInAt: null,
    isSelf: false,
    hasTwoFactor: false,
  };
}

function ticket(word: string, accountUuid: string): SupportTicket {
  return {
    uuid: `t-${word}`,
    number: 10001,
    accountUuid,
    category: 'OTHER',
    severity: 'NORMAL',
    subject: `${word} ticket`,
    status: 'OPEN',
    staffAccessConsent: false,
    createdBy: null,
    assignee: null,
    createdAt: '2026-11-01T10:00:00Z',
    updatedAt: '2026-11-01T10:00:00Z',
    awaitingAgentSince: null,
    solvedAt: null,
    messageCount: 1,
    lastMessageAt: '2026-11-01T10:00:00Z',
  };
}

const page = (items: unknown[]) => ({ data: items, meta: { total: items.length, page: 1, pageSize: 25 } });

/** The server: every answer of an account-scoped route carries the word of the account its URL names. */
function answer(url: string): unknown {
  const { pathname, searchParams } = new URL(url, 'http://portal.test');
  const scoped = /^\/api\/accounts\/([^/]+)(\/.*)$/.exec(pathname);
  if (!scoped) throw new Error(`unexpected call ${pathname}`);
  const word = WORD[scoped[1]!];
  if (!word) throw new Error(`unknown account in ${pathname}`);
  switch (scoped[2]) {
    case '/company/v1/profile':
      return { data: profile(word) };
    case '/company/v1/two-factor-policy':
      return { data: POLICY };
    case '/shop/v1/connection':
      return { data: shop(word) };
    case '/members/v1/members':
      return page(searchParams.get('section') === 'coaches' ? [] : [member(word)]);
    case '/support/v1/tickets':
      return page([ticket(word, scoped[1]!)]);
    default:
      throw new Error(`unexpected call ${pathname}`);
  }
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => Response.json(answer(url))),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

/** Whether the page shows the text, as text or as a field's value. */
const shows = (text: RegExp) =>
  screen.queryAllByText(text).length + screen.queryAllByDisplayValue(text).length > 0;

/** Renders the page for ALPHA, then (same cache, the tab's stored account still ALPHA) for BETA. */
async function renderForBothAccounts(path: string, element: ReactElement, shown: (word: string) => RegExp) {
  const queryClient = accountQueryClient(ALPHA);
  queryClient.setQueryData<Account[]>(queryKeys.myAccounts, [ALPHA, BETA]);
  queryClient.setQueryData(queryKeys.me, testUser());
  const wrapped = (
    <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
      <ConfirmProvider>{element}</ConfirmProvider>
    </PortalThemeProvider>
  );
  await renderPage(path, wrapped, { queryClient });
  await waitFor(() => expect(shows(shown('alpha'))).toBe(true));
  cleanup();

  // The guard selects another account for the next navigation; nothing else changes.
  storeAccountUuid(ALPHA.uuid);
  setCurrentAccountUuid(BETA.uuid);
  await renderPage(path, wrapped, { queryClient });
  await waitFor(() => expect(shows(shown('beta'))).toBe(true));
  expect(shows(shown('alpha'))).toBe(false);
}

describe(
  "switching the account never shows one account's cached answer for the other",
  { timeout: 30_000 },
  () => {
    it('company profile', async () => {
      await renderForBothAccounts(
        '/settings/company-profile',
        <CompanyProfilePage />,
        (w) => new RegExp(`^${w} company$`),
      );
    });

    it('shop connection', async () => {
      await renderForBothAccounts(
        '/peppershop/config',
        <ShopConfigPage />,
        (w) => new RegExp(`^https://${w}\\.shop\\.ch$`),
      );
    });

    it('members', async () => {
      await renderForBothAccounts(
        '/settings/user-management',
        <UserManagementPage />,
        (w) => new RegExp(`^${w} member`),
      );
    });

    it('support tickets', async () => {
      await renderForBothAccounts('/support', <SupportPage />, (w) => new RegExp(`${w} ticket`));
    });
  },
);
