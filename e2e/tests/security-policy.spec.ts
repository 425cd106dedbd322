import { DEMO, DEMO_ACCOUNTS, expect, signIn, testOnOwnServer, watchNetwork } from '../fixtures.ts';

// An account's two-factor rule: the owner of Beispiel GmbH (in French, her language) sees who has no second factor yet and switches the rule
// on without a grace period. A member without a second factor (Olivia, employee there and owner of Muster AG) who
// opens Beispiel GmbH then lands on the security tab of her settings with a banner that explains why, and can still
// open her other account.

const { beispiel, muster } = DEMO_ACCOUNTS;

testOnOwnServer(
  'the owner requires two-factor; a member without one is led to set it up and keeps her other account',
  async ({ page, own, browser }) => {
    await signIn(page, own, DEMO.inhaber.email, `/settings/company-profile?uuid=${beispiel.uuid}`);
    const card = page.getByRole('region', { name: 'Exigence à deux facteurs' });
    await expect(card).toContainText('Désactivée.');
    await card.getByRole('combobox', { name: 'Délai de grâce' }).click();
    await page.getByRole('option', { name: 'Aucun (immédiatement)' }).click();
    await card
      .getByRole('switch', { name: 'Les membres doivent utiliser l’authentification à deux facteurs' })
      .click();

    const dialog = page.getByRole('dialog', { name: 'Activer l’exigence à deux facteurs ?' });
    await expect(dialog).toContainText(`${DEMO.owner.name} (${DEMO.owner.email})`);
    await dialog.getByRole('button', { name: 'Activer' }).click();
    await expect(card).toContainText('Activée depuis le');
    await expect(card).toContainText('Le délai de grâce a pris fin le');

    // Olivia opens Beispiel GmbH in a browser of her own.
    const context = await browser.newContext({ baseURL: own.url });
    const member = await context.newPage();
    const network = watchNetwork(member);
    await signIn(member, own, DEMO.owner.email, `/?uuid=${beispiel.uuid}`);
    await member.waitForURL(
      (url) => url.pathname === '/settings/users' && url.search.includes('tab=security'),
    );
    const banner = member
      .getByRole('alert')
      .filter({ hasText: '«Beispiel GmbH» verlangt Zwei-Faktor-Authentifizierung' });
    await expect(banner).toBeVisible();
    // Another page of that account leads back to the security tab.
    await member.goto(`${own.url}/inbox?uuid=${beispiel.uuid}`);
    await member.waitForURL((url) => url.pathname === '/settings/users');

    // Her other account stays open.
    await banner.getByRole('link', { name: 'Anderes Konto öffnen' }).click();
    await member.waitForURL((url) => url.pathname === '/accounts');
    await member.goto(`${own.url}/inbox?uuid=${muster.uuid}`);
    await network.quiet();
    await expect(member).toHaveURL(/\/inbox/);
    await expect(member.getByRole('heading', { level: 1 })).toBeVisible();
    await context.close();
  },
);
