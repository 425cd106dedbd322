import {
  DEMO,
  expect,
  expectLoginPage,
  expectAccessibleInBothThemes,
  signIn,
  testOnOwnServer as test,
} from '../fixtures.ts';

// The own sign-in sessions: a person signed in in two browsers sees both in settings/users (tab Sicherheit), ends
// the other one there, and that browser is logged out at its next token refresh.

const SECURITY_TAB = '/settings/users?tab=security';

test('a session ended in one browser is logged out in the other at its next refresh, this one at once', async ({
  browser,
  own,
}) => {
  const contextA = await browser.newContext({ baseURL: own.url });
  const contextB = await browser.newContext({ baseURL: own.url });
  try {
    const a = await contextA.newPage();
    const b = await contextB.newPage();
    // B's clock is in the test's hand: it moves on to the access token's refresh time when the test says so.
    await b.clock.install();
    await signIn(b, own, DEMO.admin.email, '/inbox');
    await expect(b.getByRole('heading', { level: 1, name: 'Posteingang' })).toBeVisible();
    await signIn(a, own, DEMO.admin.email, SECURITY_TAB);

    const card = a.getByRole('region', { name: 'Sitzungen' });
    const rows = card.getByRole('table', { name: 'Sitzungen' }).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    const current = rows.filter({ hasText: 'Diese Sitzung' });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText('Chrome');
    await expect(card.getByRole('button', { name: 'Überall sonst abmelden' })).toBeVisible();

    // axe on the card, light and dark (the theme follows the system's colour scheme).
    await expectAccessibleInBothThemes(a, 'section[aria-labelledby="security-sessions"]');

    // End B's session (the row that is not this one), after the confirmation.
    const other = rows.filter({ hasNotText: 'Diese Sitzung' });
    await other.getByRole('button', { name: /^Sitzung .* abmelden$/ }).click();
    const dialog = a.getByRole('dialog', { name: 'Sitzung abmelden?' });
    await dialog.getByRole('button', { name: 'Abmelden' }).click();
    await expect(a.getByText('Die Sitzung wurde abgemeldet.')).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(card.getByRole('button', { name: 'Überall sonst abmelden' })).toHaveCount(0);

    // B still shows its page until its token is due for a refresh; the provider refuses the refresh (the session
    // is gone) and B lands on the provider's login page.
    await expect(b.getByRole('heading', { level: 1, name: 'Posteingang' })).toBeVisible();
    const refused = b.waitForResponse(
      (response) => response.url().endsWith('/protocol/openid-connect/token') && response.status() === 400,
    );
    await b.clock.fastForward('04:30');
    await refused;
    await expectLoginPage(b, own);

    // A is untouched: its session still works.
    await a.reload();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Diese Sitzung');

    // Signing out this very session (allowed, as in Keycloak's account console) logs out here at once.
    await rows.first().getByRole('button', { name: 'Diese Sitzung abmelden' }).click();
    const confirmation = a.getByRole('dialog', { name: 'Sitzung abmelden?' });
    await expect(confirmation).toContainText('Sie werden in diesem Browser abgemeldet');
    await confirmation.getByRole('button', { name: 'Abmelden' }).click();
    await expectLoginPage(a, own);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});
