import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, testOnOwnServer } from '../fixtures.ts';

// Reading, marking and archiving change the demo notifications: the journey gets a server and database of its own.
const test = testOnOwnServer;

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const badge = (page: Page) => page.getByTestId('inbox-badge').locator('.MuiBadge-badge');
const rows = (page: Page) => page.getByTestId('notification-row');

test('the owner reads the inbox: the badge and the title follow every change, counted by the server', async ({
  page,
  own,
}) => {
  // Olivia has four unread notifications in Muster AG (two personal: one of them the demo's maintenance announcement)
  // and three read ones.
  await signIn(page, own, DEMO.owner.email, '/inbox');
  await expect(h1(page, 'Posteingang')).toBeVisible();
  await expect(badge(page)).toHaveText('4');
  await expect(page).toHaveTitle(/^\(4\) Posteingang/);
  await expect(rows(page)).toHaveCount(7);
  // Unread first.
  await expect(rows(page).nth(0)).toHaveAttribute('data-unread', 'true');
  await expect(rows(page).nth(2)).toHaveAttribute('data-unread', 'true');
  await expect(rows(page).nth(4)).toHaveAttribute('data-unread', 'false');
  await expect(page.getByText('Sie wurden aus «Treuhand Alt AG» entfernt')).toBeVisible();

  // Marking one read from its row.
  await page.getByRole('button', { name: 'Als gelesen markieren: Einladung abgelehnt' }).click();
  await expect(badge(page)).toHaveText('3');
  await expect(page).toHaveTitle(/^\(3\) Posteingang/);

  // Opening one marks it read and shows where it leads.
  await page.getByRole('link', { name: /Uma Unverified hat die Einladung angenommen/ }).click();
  await expect(h1(page, 'Mitteilung')).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Uma Unverified hat die Einladung angenommen' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zur Benutzerverwaltung' })).toBeVisible();
  await expect(badge(page)).toHaveText('2');
  await page.getByRole('link', { name: 'Zum Posteingang' }).click();

  // The unread filter keeps the one left; "mark all read" empties the badge and the title's count.
  await page.getByRole('switch', { name: 'Nur ungelesene' }).check();
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Alle als gelesen markieren' }).click();
  await expect(page.getByText('Keine Mitteilungen passen zu den Filtern.')).toBeVisible();
  await expect(badge(page)).toBeHidden();
  await expect(page).toHaveTitle(/^Posteingang/);
  await page.getByRole('switch', { name: 'Nur ungelesene' }).uncheck();

  // Marking one unread again brings the badge back; archiving it takes it away with the row.
  await page.getByRole('button', { name: 'Als ungelesen markieren: Einladung abgelehnt' }).click();
  await expect(badge(page)).toHaveText('1');
  await page.getByRole('button', { name: 'Archivieren: Einladung abgelehnt' }).click();
  await expect(badge(page)).toBeHidden();
  await expect(rows(page)).toHaveCount(6);

  // The archived view lists it, kept in the address bar; the badge still counts only the inbox.
  await page.getByRole('button', { name: 'Archiviert', exact: true }).click();
  await expect(page).toHaveURL(/[?&]archived=1/);
  await page.reload();
  await expect(page.getByText(/^Archivierte Mitteilungen, zuletzt archivierte zuoberst/)).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(badge(page)).toBeHidden();
  // Moving it back to the inbox brings back its row and, unread, the badge.
  await page.getByRole('button', { name: 'In den Posteingang verschieben: Einladung abgelehnt' }).click();
  await expect(badge(page)).toHaveText('1');
  await expect(page.getByText('Keine archivierten Mitteilungen.')).toBeVisible();
  await page.getByRole('button', { name: 'Posteingang', exact: true }).click();
  await expect(page).not.toHaveURL(/archived=/);
  await expect(rows(page)).toHaveCount(7);

  // An archived notification still opens, marked archived, and moves back from its page.
  await page.getByRole('link', { name: /Uma Unverified hat die Einladung angenommen/ }).click();
  await expect(h1(page, 'Mitteilung')).toBeVisible();
  await page.getByRole('button', { name: 'Archivieren', exact: true }).click();
  await expect(rows(page)).toHaveCount(6);
  await page.getByRole('button', { name: 'Archiviert', exact: true }).click();
  await page.getByRole('link', { name: /Uma Unverified hat die Einladung angenommen/ }).click();
  await expect(h1(page, 'Mitteilung')).toBeVisible();
  await expect(page.getByText('Archiviert', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'In den Posteingang verschieben' }).click();
  await expect(page.getByRole('button', { name: 'Archivieren', exact: true })).toBeVisible();
  await expect(page.getByText('Archiviert', { exact: true })).toBeHidden();
  await page.getByRole('link', { name: 'Zum Posteingang' }).click();
  await expect(rows(page)).toHaveCount(7);
  await expect(badge(page)).toHaveText('1');

  // A notification that is not there (or not hers) is "not found".
  await page.goto('/inbox/6f1c2b1e-0000-4000-8000-0000000000ee');
  await expect(h1(page, 'Mitteilung nicht gefunden')).toBeVisible();
});
