/**
 * Members list at scale, on PostgreSQL: Muster AG with 5,000 more members and 1,000 open invitations; the API time
 * of the first page and of a search (target p99 ≤ 20 ms). Runs when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names
 * a PostgreSQL user that may create databases; the bench database is dropped afterwards.
 */
import crypto from 'node:crypto';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { DEMO, DEMO_ACCOUNTS, fillLogin, startServer, withPostgres } from '../fixtures.ts';
import config from '../playwright.config.ts';

export const MEMBERS = 5_000;
export const INVITATIONS = 1_000;
const RUNS = 300;
const WARMUP = 30;

/** The members and invitations of the scenario, added to the seeded Muster AG. */
async function generate(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const owner = (
      await client.query<{ uuid: string }>('select uuid from users where email = $1', [DEMO.owner.email])
    ).rows[0]!.uuid;
    await client.query(
      `insert into users (uuid, subject, email, name, language, last_sign_in_at)
       select gen_random_uuid(), 'bench-' || g, 'bench.member' || g || '@example.net', 'Bench Member ' || g, 'de',
              now() - make_interval(hours => g)
         from generate_series(1, $1::int) g`,
      [MEMBERS],
    );
    await client.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, invited_by, accepted_at)
       select $1, uuid, case when random() < 0.1 then 'ADMIN' else 'EMPLOYEE' end, 'ACCEPTED', $2, now()
         from users where subject like 'bench-%'`,
      [DEMO_ACCOUNTS.muster.uuid, owner],
    );
    await client.query(
      `insert into invitations (uuid, account_uuid, email, role, token_hash, expires_at, invited_by, invited_at, sent_at)
       select gen_random_uuid(), $1, 'bench.invite' || g || '@example.net', 'EMPLOYEE', md5(g::text) || md5('b' || g),
              now() + make_interval(days => g % 10 - 2), $2, now() - interval '2 days', now() - interval '2 days'
         from generate_series(1, $3::int) g`,
      [DEMO_ACCOUNTS.muster.uuid, owner, INVITATIONS],
    );
    await client.query('analyze');
    // The generated pages written out before measuring, as the server's list benches do (`settle`, decision 260).
    await client.query('checkpoint').catch((error: { code?: string }) => {
      if (error.code !== '42501') throw error;
    });
  } finally {
    await client.end();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

interface Timing {
  p50: number;
  p99: number;
}

export interface MembersFigures {
  firstPage: Timing;
  search: Timing;
  /** GET /users/v1/me on the same server: the floor every API call pays. */
  baseline: Timing;
  total: number;
  searchTotal: number;
}

export async function measureMembers(): Promise<MembersFigures | null> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) return null;
  const name = `portal_bench_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await withPostgres(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { server, stop } = await startServer({ DATABASE_URL: url.toString() });
  const browser = await chromium.launch(config.use?.launchOptions);
  try {
    await generate(url.toString());
    // A real access token: sign in as the demo admin in the browser and take the app's token.
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.locator('#username').waitFor();
    await fillLogin(page, DEMO.admin.email);
    await page.waitForURL((u) => u.origin === server.url && !u.pathname.startsWith('/realms/'));
    await page.waitForFunction(() => sessionStorage.getItem('kc-token'));
    const token = await page.evaluate(() => sessionStorage.getItem('kc-token')!);
    const base = `${server.url}/api/accounts/${DEMO_ACCOUNTS.muster.uuid}/members/v1/members`;
    const time = async (query: string, url = base) => {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const started = performance.now();
        const response = await fetch(`${url}?${query}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await response.json()) as { meta?: { total: number } };
        if (!response.ok) throw new Error(`members list answered ${response.status}`);
        if (i >= WARMUP) times.push(performance.now() - started);
        total = body.meta?.total ?? 0;
      }
      return { p50: percentile(times, 50), p99: percentile(times, 99), total };
    };
    // The same request path without the list: what authentication and the HTTP round trip cost on this machine.
    const me = await time('', `${server.url}/api/users/v1/me`);
    const firstPage = await time('section=members&page=1&pageSize=25');
    const search = await time('section=members&page=1&pageSize=25&search=member 42');
    return { firstPage, search, total: firstPage.total, searchTotal: search.total, baseline: me };
  } finally {
    await browser.close();
    await stop();
    await withPostgres(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
  }
}
