import type { Page } from '@playwright/test';
import {
  callApi,
  DEMO,
  DEMO_ACCOUNTS,
  expect,
  signIn,
  testOnOwnServer,
  uniqueEmail,
  type PortalServer,
} from '../fixtures.ts';

// Answering an invitation, on the invitations page and on the dashboard: the same hooks and texts. Each journey
// answers employee@'s one pending invitation (Beispiel GmbH), so each gets a server and database of its own.
const test = testOnOwnServer;

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const accountSwitcher = (page: Page) => page.getByRole('button', { name: 'Konto wechseln' });

test('accepting on /invite/verify opens the account', async ({ page, own }) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, '/invite/verify');
  await expect(h1(page, 'Einladungen')).toBeVisible();
  await page.getByRole('button', { name: `Einladung zu ${beispiel.name} annehmen` }).click();
  await page.waitForURL(`${own.url}/?uuid=${beispiel.uuid}`);
  await expect(page.getByText(`Sie sind jetzt Mitglied von ${beispiel.name}.`)).toBeVisible();
  await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
  expect(await page.evaluate(() => localStorage.getItem('accountUuid'))).toBe(beispiel.uuid);
});

// Issue 23 item 5: a pending invitation is never the current account (decision 213); a link naming it by uuid
// opens the invitation, where declining asks first and leaves the person in their own account.
test('a link naming a pending invitation opens the invitation; declining there asks first', async ({
  page,
  own,
}) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, `/?uuid=${beispiel.uuid}`);
  await page.waitForURL(`${own.url}/invite/verify`);
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Mitarbeiter/);
  await page.getByRole('button', { name: `Einladung zu ${beispiel.name} ablehnen` }).click();
  const dialog = page.getByRole('dialog', { name: 'Einladung ablehnen?' });
  await expect(dialog).toContainText(`Sie erhalten keinen Zugang zu ${beispiel.name}.`);
  await dialog.getByRole('button', { name: 'Ablehnen' }).click();
  await expect(page.getByText(`Die Einladung zu ${beispiel.name} wurde abgelehnt.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: beispiel.name })).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('accountUuid'))).not.toBe(beispiel.uuid);
});

test('the dashboard lists the open invitation and accepting there opens the account', async ({
  page,
  own,
}) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, '/');
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Mitarbeiter/);
  const invitations = page.getByRole('region', { name: 'Offene Einladung' });
  await expect(invitations).toContainText(`${beispiel.name}Eingeladen als Mitarbeiter`);
  await invitations.getByRole('button', { name: `Einladung zu ${beispiel.name} annehmen` }).click();
  await page.waitForURL(`${own.url}/?uuid=${beispiel.uuid}`);
  await expect(page.getByText(`Sie sind jetzt Mitglied von ${beispiel.name}.`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
  await expect(invitations).toHaveCount(0);
});

/** Subjects and texts of the mails to `to` in the demo outbox, newest first. */
async function mailsTo(server: PortalServer, to: string): Promise<{ subject: string; text: string }[]> {
  const response = await fetch(`${server.url}/dev/mail.json?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { data: { subject: string; text: string }[] }).data;
}

/** The page, signed in as an admin of `account`, invites `email`; the link of the mail, from the demo outbox. */
async function invite(page: Page, server: PortalServer, account: string, email: string): Promise<string> {
  const path = `/api/accounts/${account}/members/v1/invitations`;
  expect(await callApi(page, 'POST', path, { emails: [email], role: 'EMPLOYEE' })).toBe(201);
  let link: string | undefined;
  await expect
    .poll(async () => {
      link = (await mailsTo(server, email))
        .map((mail) => /https?:\/\/\S+\/invite\/verify\?\S+/.exec(mail.text)?.[0])
        .find(Boolean);
      return link;
    })
    .toBeTruthy();
  return link!;
}

// Decision 193: the invitation link proves the address it was mailed to, and nothing else binds a person to an account.
test('an invitee who registers from the mailed link lands on the invitation without a verification mail', async ({
  page,
  own,
  browser,
}) => {
  const { muster } = DEMO_ACCOUNTS;
  const email = uniqueEmail('invitee');
  await signIn(page, own, DEMO.admin.email, '/');
  const link = await invite(page, own, muster.uuid, email);

  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link);
  // Issue 23 item 4: the link's page names the invitation (decision 214), registering first, the login second.
  await expect(h1(invitee, `Einladung zu ${muster.name}`)).toBeVisible();
  await expect(invitee.locator('#kc-invitation')).toHaveText(
    `${DEMO.admin.name} lädt Sie ein, dem Konto «${muster.name}» als Mitarbeiter/in beizutreten.`,
  );
  await expect(invitee.getByText(`Die Einladung gilt für ${email}.`)).toBeVisible();
  await expect(invitee.locator('#username')).toBeHidden();
  await invitee.getByText('Ich habe schon ein Login').click();
  await expect(invitee.locator('#username')).toHaveValue(email);
  await invitee.getByRole('link', { name: 'Registrieren' }).click();
  await expect(invitee.locator('#kc-invitation')).toHaveText(
    `Sie registrieren sich für die Einladung zum Konto «${muster.name}».`,
  );
  await expect(invitee.locator('#email')).toHaveValue(email);
  await expect(invitee.locator('#email')).toHaveAttribute('readonly', '');
  await invitee.locator('#firstName').fill('Irene');
  await invitee.locator('#lastName').fill('Invitee');
  await invitee.locator('#password').fill('Another-Secret-2026');
  await invitee.locator('#password-confirm').fill('Another-Secret-2026');
  await invitee.locator('#kc-register').click();

  // No "check your mail" step: signed in at once, back on the invitation, with the address verified.
  await invitee.waitForURL((url) => url.origin === own.url && url.pathname === '/invite/verify');
  await expect(invitee.getByRole('heading', { level: 2, name: muster.name })).toBeVisible();
  await expect(invitee.getByText('Bitte bestätigen Sie Ihre E-Mail-Adresse.')).toHaveCount(0);
  // Issue 23 item 5: with only this pending invitation, no account page is offered, and none opens (decision 213).
  const nav = invitee.getByRole('navigation', { name: 'Hauptnavigation' });
  for (const item of ['Posteingang', 'Support', 'Protokoll', 'Übersicht']) {
    await expect(nav.getByRole('link', { name: item, exact: true })).toHaveCount(0);
  }
  await invitee.goto(`${own.url}/inbox`);
  await invitee.waitForURL(`${own.url}/invite/verify`);
  await expect(invitee.getByRole('heading', { level: 2, name: muster.name })).toBeVisible();
  await invitee.getByRole('button', { name: `Einladung zu ${muster.name} annehmen` }).click();
  await invitee.waitForURL(`${own.url}/?uuid=${muster.uuid}`);
  await expect(accountSwitcher(invitee)).toHaveText(/Muster AG.*Mitarbeiter/);
  // The invitation was the one mail: no verification mail went out.
  expect((await mailsTo(own, email)).map((mail) => mail.subject)).toEqual([
    `Portal: Einladung zu ${muster.name}`,
  ]);
  await context.close();
});

test('an invited address that is not verified is asked to verify it first; the mail’s link brings it back to accept', async ({
  page,
  own,
  browser,
}) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.inhaber.email, '/');
  const link = new URL(await invite(page, own, beispiel.uuid, DEMO.unverified.email));

  const context = await browser.newContext();
  const invited = await context.newPage();
  await signIn(invited, own, DEMO.unverified.email, link.pathname + link.search);
  const card = invited.getByRole('main');
  await expect(card.getByRole('heading', { level: 2, name: beispiel.name })).toBeVisible();
  await expect(
    card.getByText(
      `Your address ${DEMO.unverified.email} is not verified yet. Verify it to accept this invitation: we send you an email with a link that brings you back here.`,
    ),
  ).toBeVisible();
  await expect(card.getByRole('button', { name: `Accept the invitation to ${beispiel.name}` })).toHaveCount(
    0,
  );

  await card.getByRole('link', { name: 'Send verification email' }).click();
  await expect(invited.locator('#kc-verify-text')).toContainText(DEMO.unverified.email);
  let verifyLink: string | undefined;
  await expect
    .poll(async () => {
      verifyLink = (await mailsTo(own, DEMO.unverified.email))
        .map((mail) => /https?:\/\/\S+\/verify-email\?key=\S+/.exec(mail.text)?.[0])
        .find(Boolean);
      return verifyLink;
    })
    .toBeTruthy();
  await invited.goto(verifyLink!);
  await invited.waitForURL(`${own.url}${link.pathname}${link.search}`);
  await invited.getByRole('button', { name: `Accept the invitation to ${beispiel.name}` }).click();
  await invited.waitForURL(`${own.url}/?uuid=${beispiel.uuid}`);
  await expect(invited.getByText(`You are now a member of ${beispiel.name}.`)).toBeVisible();
  await context.close();
});
