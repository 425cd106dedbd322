import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, test } from '../fixtures.ts';

// What a person does with the mouse works with the keyboard alone (issue 23 item 13, decision 216): one owner, one
// sign-in, only page.keyboard from there; each step asserts where the focus is. Nothing is changed (every dialog is
// cancelled), so it shares the worker's server. The menus, dialogs and the focus keeper have page tests of their own;
// this is the one walk in a real browser, where focus rules (a disabled button loses it) are Chromium's.

/** The focused element: its role or tag, and its accessible name as far as the journey needs it. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { role: 'body', name: '' };
    const labelledBy = element.getAttribute('aria-labelledby');
    const label = (element as HTMLInputElement).labels?.[0];
    const name =
      element.getAttribute('aria-label') ??
      (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
      label?.textContent ??
      element.textContent ??
      '';
    return {
      role: element.getAttribute('role') ?? element.tagName.toLowerCase(),
      name: name.replace(/\s+/g, ' ').trim(),
    };
  });
}

/** Presses `key` until the focus is on an element named `name` (at most `max` times): Tab order, not a click. */
async function pressUntil(page: Page, key: string, name: string | RegExp, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const { name: now } = await focused(page);
    if (typeof name === 'string' ? now === name : name.test(now)) return;
  }
  throw new Error(
    `${key} × ${max} never reached ${String(name)}; the focus is on ${JSON.stringify(await focused(page))}`,
  );
}

test('an owner walks members, a confirmation, the log and the plans by keyboard alone', async ({
  page,
  server,
}) => {
  await signIn(page, server, DEMO.owner.email, '/settings/user-management');
  const menuButton = page.getByRole('button', { name: 'Aktionen für Adrian Admin' });
  await expect(menuButton).toBeVisible();

  // The first Tab shows the skip link; Enter moves the focus past the header and the navigation.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toEqual({ role: 'a', name: 'Zum Inhalt springen' });
  await expect(page.getByRole('link', { name: 'Zum Inhalt springen' })).toBeInViewport();
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toEqual({ role: 'a', name: 'Digital Coach einladen' });

  // The row menu: Enter opens it on its first item, Escape closes it with the focus back on ⋮.
  await pressUntil(page, 'Tab', 'Aktionen für Adrian Admin');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  expect(await focused(page)).toEqual({ role: 'menuitem', name: 'Rolle ändern' });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(menuButton).toBeFocused();

  // "Rolle ändern" opens the member's page: the focus goes to its main region, the next Tab into its form.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Mitglied bearbeiten' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abbrechen' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
  await pressUntil(page, 'Tab', 'Abbrechen', 6);
  await page.keyboard.press('Enter');
  const invitationMenu = page.getByRole('button', { name: 'Aktionen für lea.lehmann@example.com' });
  await expect(invitationMenu).toBeVisible();

  // A confirmation starts on its safe button; Escape cancels it and gives the focus back to ⋮.
  await pressUntil(page, 'Tab', 'Aktionen für lea.lehmann@example.com');
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  expect(await focused(page)).toEqual({ role: 'menuitem', name: 'Einladung zurückziehen' });
  await page.keyboard.press('Enter');
  const confirmation = page.getByRole('dialog', { name: 'Einladung zurückziehen?' });
  await expect(confirmation).toBeVisible();
  await expect(confirmation.getByRole('button', { name: 'Abbrechen' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirmation).toBeHidden();
  await expect(invitationMenu).toBeFocused();

  // Back through the page to the navigation (Shift+Tab), to the log.
  await pressUntil(page, 'Shift+Tab', 'Protokoll');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Protokoll' })).toBeVisible();

  // The export keeps the focus on its button through the download (the button is disabled while it works).
  await pressUntil(page, 'Tab', 'Als CSV exportieren');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  await download;
  await expect(page.getByRole('button', { name: 'Als CSV exportieren' })).toBeFocused();

  // A date typed as it is written in German; its calendar opens with Enter and closes with Escape.
  await pressUntil(page, 'Tab', 'Von');
  await page.keyboard.type('01112026');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Von' })).toHaveValue('01.11.2026');
  expect((await focused(page)).name).toMatch(/^Datum auswählen/);
  await page.keyboard.press('Enter');
  const calendar = page.getByRole('dialog');
  await expect(calendar).toBeVisible();
  expect(await focused(page)).toMatchObject({ role: 'gridcell', name: '1' });
  await page.keyboard.press('Escape');
  await expect(calendar).toBeHidden();
  expect((await focused(page)).name).toMatch(/^Datum auswählen/);

  // The plans' period: one Tab stop, arrows move between Monatlich and Jährlich, Space chooses.
  await pressUntil(page, 'Shift+Tab', 'Abonnements');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Abonnements' })).toBeVisible();
  const period = page.getByRole('group', { name: 'Abrechnungsperiode' });
  const monthly = period.getByRole('button', { name: 'Monatlich' });
  const yearly = period.getByRole('button', { name: 'Jährlich' });
  await expect(yearly).toHaveAttribute('aria-pressed', 'true');
  await pressUntil(page, 'Tab', 'Monatlich');
  await page.keyboard.press('Space');
  await expect(monthly).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(yearly).toBeFocused();
  await page.keyboard.press('Space');
  await expect(yearly).toHaveAttribute('aria-pressed', 'true');
  await expect(monthly).toHaveAttribute('aria-pressed', 'false');
});
