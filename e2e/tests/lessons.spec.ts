import type { Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, testOnOwnServer, watchNetwork } from '../fixtures.ts';

// The lesson page: a member follows an ncr/lesson?uuid= link (no account selection), completes a lesson and
// continues, and the course resumes at the next lesson on a later visit; another account's course is not shown.
// The journeys record progress, so each gets a server and database of its own.
const test = testOnOwnServer;

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const lessonTitle = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const outline = (page: Page) => page.getByRole('navigation', { name: 'Kursübersicht' });

test('a member completes a lesson, continues, and resumes at the next one later', async ({ page, own }) => {
  const { muster } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, `/ncr/lesson?uuid=${muster.uuid}&utm_source=mail`);
  await page.waitForURL(`${own.url}/ncr/lesson/${muster.uuid}`);
  await expect(h1(page, 'Lektionen')).toBeVisible();
  await expect(page.getByText('Einführung ins Portal für Muster AG')).toBeVisible();
  await expect(lessonTitle(page, 'Konten und Mitglieder')).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Jemanden einladen' })).toBeVisible();
  await expect(outline(page).getByText('0 von 5 Lektionen erledigt')).toBeVisible();
  await expect(outline(page).getByText('Noch etwa 20 Minuten')).toBeVisible();

  await page.getByRole('button', { name: 'Als erledigt markieren und weiter' }).click();
  await expect(lessonTitle(page, 'Rechnungen und QR-Rechnung')).toBeVisible();
  await expect(lessonTitle(page, 'Rechnungen und QR-Rechnung')).toBeFocused();
  await expect(outline(page).getByText('1 von 5 Lektionen erledigt')).toBeVisible();
  await expect(outline(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '20');
  await expect(outline(page).getByRole('link', { name: /1\. Konten und Mitglieder/ })).toContainText(
    'Erledigt',
  );
  // The lesson's link leaves the portal in a new tab that cannot reach back.
  const link = page.getByRole('article').getByRole('link', { name: 'einfach-zahlen.ch' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await watchNetwork(page).quiet();

  await page.reload();
  await expect(lessonTitle(page, 'Rechnungen und QR-Rechnung')).toBeVisible();
  await expect(outline(page).getByText('1 von 5 Lektionen erledigt')).toBeVisible();

  // A later visit through the same link resumes where the member left off.
  await page.goto(`${own.url}/ncr/lesson?uuid=${muster.uuid}`);
  await page.waitForURL(`${own.url}/ncr/lesson/${muster.uuid}`);
  await expect(lessonTitle(page, 'Rechnungen und QR-Rechnung')).toBeVisible();
  await expect(outline(page).getByRole('link', { name: /2\. Rechnungen/ })).toHaveAttribute(
    'aria-current',
    'step',
  );

  // Marked not complete again: the overall progress follows.
  await outline(page)
    .getByRole('link', { name: /1\. Konten und Mitglieder/ })
    .click();
  await expect(lessonTitle(page, 'Konten und Mitglieder')).toBeFocused();
  await page.getByRole('button', { name: 'Als nicht erledigt markieren' }).click();
  await expect(outline(page).getByText('0 von 5 Lektionen erledigt')).toBeVisible();
});

test("another account's course is not shown: not found, no lesson", async ({ page, own }) => {
  const { beispiel } = DEMO_ACCOUNTS;
  // employee@ has only a pending invitation to Beispiel GmbH: no access yet.
  await signIn(page, own, DEMO.employee.email, `/ncr/lesson?uuid=${beispiel.uuid}`);
  await page.waitForURL(`${own.url}/ncr/lesson/${beispiel.uuid}`);
  await expect(page.getByText('Keine Lektionen gefunden')).toBeVisible();
  await expect(
    page.getByText('Dieses Konto gibt es nicht, oder Sie haben keinen Zugang dazu.'),
  ).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(0);
  await expect(page.getByText('Konten und Mitglieder')).toHaveCount(0);
  await expect(page.getByText(/Einführung ins Portal/)).toHaveCount(0);
});

test('the owner of Beispiel GmbH reads the course in French', async ({ page, own }) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.inhaber.email, `/ncr/lesson?uuid=${beispiel.uuid}`);
  await page.waitForURL(`${own.url}/ncr/lesson/${beispiel.uuid}`);
  await expect(h1(page, 'Leçons')).toBeVisible();
  await expect(lessonTitle(page, 'Comptes et membres')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Plan du cours' })).toContainText(
    'Leçons terminées : 0 sur 5',
  );
  await page.getByRole('button', { name: 'Marquer comme terminée et continuer' }).click();
  await expect(lessonTitle(page, 'Facturation et QR-facture')).toBeVisible();
  await expect(page.getByText('Leçons terminées : 1 sur 5')).toBeVisible();
});
