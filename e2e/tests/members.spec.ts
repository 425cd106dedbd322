import type { Page } from '@playwright/test';
import {
  callApi,
  DEMO,
  DEMO_ACCOUNTS,
  expect,
  signIn,
  test as readOnly,
  testOnOwnServer,
  uniqueEmail,
} from '../fixtures.ts';

// Member management: an admin invites a person who has no user yet, the mail's link leads them through
// registration into the account with the invited role; an employee can neither open the page nor call its API.
// Invitations change demo data, so those journeys get a server and database of their own; the read-only one uses
// the worker's.
const test = testOnOwnServer;

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** The link of the newest invitation mail to `to`, from the demo outbox. */
async function invitationLink(page: Page, to: string): Promise<string> {
  let link: string | undefined;
  await expect(async () => {
    const response = await page.request.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
    const { data } = (await response.json()) as { data: { subject: string; text: string }[] };
    expect(data[0]?.subject).toBe(`Portal: Einladung zu ${DEMO_ACCOUNTS.muster.name}`);
    link = data[0]?.text.match(/https?:\/\/\S+\/invite\/verify\?\S+/)?.[0];
    expect(link).toBeDefined();
  }).toPass();
  return link!;
}

test('an admin invites a new person, who registers through the mail and joins with the invited role', async ({
  page,
  own,
  browser,
}) => {
  const email = uniqueEmail('invited');
  await signIn(page, own, DEMO.admin.email, '/settings/user-management');
  await expect(h1(page, 'Benutzerverwaltung')).toBeVisible();
  await page.getByRole('link', { name: 'Mitglieder einladen' }).click();
  await expect(h1(page, 'Mitglieder einladen')).toBeVisible();

  // A comma ends an address: it becomes a chip. An address that is already a member is named, nobody invited.
  const emails = page.getByRole('combobox', { name: 'E-Mail-Adressen' });
  await emails.fill(`${email}, ${DEMO.employee.email},`);
  await page.getByRole('combobox', { name: 'Rolle' }).click();
  await page.getByRole('option', { name: 'Administrator' }).click();
  await page.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(page.getByText(`${DEMO.employee.email} ist bereits Mitglied.`)).toBeVisible();
  const outbox = await page.request.get(`/dev/mail.json?to=${encodeURIComponent(email)}`);
  expect(((await outbox.json()) as { data: unknown[] }).data).toHaveLength(0);

  // Remove the member's chip, send again.
  await page.getByRole('button', { name: DEMO.employee.email }).locator('svg').click();
  await page.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(page.getByText('1 Einladung wurde gesendet.')).toBeVisible();
  await expect(h1(page, 'Benutzerverwaltung')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Eingeladen');
  await expect(row).toContainText('Administrator');
  await expect(row).toContainText(DEMO.admin.name);

  const link = await invitationLink(page, email);
  expect(new URL(link).origin).toBe(own.url);

  // Opened by someone signed in with another address: it says so and offers to sign in as the invited one.
  await page.goto(link);
  await expect(page.getByText(`Diese Einladung ist an ${email} gerichtet.`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Als ${email} anmelden` })).toBeVisible();

  // The invited person, not signed in: the sign-in page has the address, registration too; then the invitation.
  const context = await browser.newContext();
  const invited = await context.newPage();
  await invited.goto(link);
  await expect(invited.locator('#username')).toHaveValue(email);
  await invited.locator('#kc-registration').click();
  await expect(invited.locator('#email')).toHaveValue(email);
  await invited.locator('#firstName').fill('Ida');
  await invited.locator('#lastName').fill('Eingeladen');
  await invited.locator('#password').fill('Another-Secret-2026');
  await invited.locator('#password-confirm').fill('Another-Secret-2026');
  await invited.locator('#kc-register').click();
  // Registering through the mailed link with the invited address proves it: signed in at once, on the invitation.
  await invited.waitForURL((url) => url.origin === own.url && url.pathname === '/invite/verify');
  await expect(invited.getByRole('heading', { level: 2, name: DEMO_ACCOUNTS.muster.name })).toBeVisible();
  await expect(invited.getByText('Eingeladen als Administrator')).toBeVisible();
  await expect(invited.getByText(`Eingeladen von ${DEMO.admin.name}`)).toBeVisible();
  await invited.getByRole('button', { name: `Einladung zu ${DEMO_ACCOUNTS.muster.name} annehmen` }).click();
  await invited.waitForURL(`${own.url}/?uuid=${DEMO_ACCOUNTS.muster.uuid}`);
  await expect(invited.getByRole('button', { name: 'Konto wechseln' })).toHaveText(
    /Muster AG.*Administrator/,
  );

  // The link is used now, and says so.
  await invited.goto(link);
  await expect(invited.getByText('Diese Einladung wurde bereits beantwortet')).toBeVisible();
  await context.close();

  // The admin sees a member now.
  await page.goto('/settings/user-management');
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Mitglied');
});

readOnly(
  'an employee cannot reach member management, and the server refuses its calls',
  async ({ page, server: own }) => {
    await signIn(page, own, DEMO.employee.email, '/settings/user-management');
    await page.waitForURL(`${own.url}/`);
    await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Benutzerverwaltung' })).toHaveCount(0);

    const base = `/api/accounts/${DEMO_ACCOUNTS.muster.uuid}/members/v1`;
    expect(await callApi(page, 'GET', `${base}/members`)).toBe(403);
    expect(
      await callApi(page, 'POST', `${base}/invitations`, { emails: ['x@example.org'], role: 'ADMIN' }),
    ).toBe(403);
    const outbox = await page.request.get('/dev/mail.json?to=x@example.org');
    expect(((await outbox.json()) as { data: unknown[] }).data).toHaveLength(0);
  },
);

test('support staff under the customer’s consent see the members and the company but change nothing', async ({
  page,
  own,
}) => {
  // The demo's open ticket of Muster AG allows support in.
  const muster = DEMO_ACCOUNTS.muster.uuid;
  await signIn(page, own, DEMO.agent.email, `/settings/user-management?uuid=${muster}`);
  await expect(h1(page, 'Benutzerverwaltung')).toBeVisible();
  await expect(page.getByText(`Sie sehen ${DEMO_ACCOUNTS.muster.name} als Support`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Mitglieder und Einladungen' });
  await expect(table.getByRole('row').filter({ hasText: DEMO.employee.email })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Mitglieder einladen' })).toHaveCount(0);
  await expect(table.getByRole('button', { name: /^Aktionen für/ })).toHaveCount(0);

  // The company's details read, without a way to save them.
  await page.getByRole('link', { name: 'Firmenprofil' }).click();
  await expect(page.getByRole('textbox', { name: /Firmenname/ })).toHaveValue(DEMO_ACCOUNTS.muster.name);
  await expect(page.getByRole('textbox', { name: /Firmenname/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Speichern' })).toHaveCount(0);

  // The server refuses a change sent anyway, and reads stay open.
  const base = `/api/accounts/${muster}/members/v1`;
  expect(await callApi(page, 'GET', `${base}/members`)).toBe(200);
  expect(
    await callApi(page, 'POST', `${base}/invitations`, { emails: ['x@example.org'], role: 'ADMIN' }),
  ).toBe(403);
  const outbox = await page.request.get('/dev/mail.json?to=x@example.org');
  expect(((await outbox.json()) as { data: unknown[] }).data).toHaveLength(0);
});
