import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { Account } from '@portal/contract';
import { renderPage } from '@/testing/render.tsx';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import DashboardPage from './dashboard-page.tsx';

let own: Account[] = [];
let current: Account | null = null;
vi.mock('@/api/session.ts', () => ({
  useMe: () => testUser({ name: 'Aaron Agent', userRole: 'SUPPORT_AGENT' }),
  useMyAccounts: () => own,
  useCurrentAccount: () => current,
}));

describe('dashboard', () => {
  it('counts the user’s own accounts', async () => {
    own = [testAccount('a1', { name: 'Muster AG' }), testAccount('a2')];
    current = own[0]!;
    await renderPage('/', <DashboardPage />);
    expect(screen.getByText('Sie gehören zu 2 Konten.')).toBeTruthy();
  });

  it('tells staff in a customer’s account that they work there as support, not how many accounts they have', async () => {
    own = [];
    current = testAccount('c1', { name: 'Muster AG', accountRole: 'SUPPORT' });
    await renderPage('/', <DashboardPage />);
    expect(screen.getByText(/Sie arbeiten als Support in diesem Konto\./)).toBeTruthy();
    expect(screen.queryByText(/Sie gehören zu/)).toBeNull();
  });
});
