import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, testOnOwnServer, watchNetwork } from '../fixtures.ts';

// The upgrade journey: the owner of Beispiel GmbH (Standard, monthly, in euros; she reads the portal in French)
// moves to Professional, sees what the change charges now, confirms it, and finds the prorated invoice with its
// PDF on the billing page. It changes the subscription, so it runs on a server and database of its own.
const test = testOnOwnServer;

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

test('an owner upgrades Standard to Professional, confirms the previewed charge and downloads its invoice', async ({
  page,
  own,
}) => {
  const { beispiel } = DEMO_ACCOUNTS;
  const network = watchNetwork(page);
  await signIn(page, own, DEMO.inhaber.email, `/subscriptions?uuid=${beispiel.uuid}`);
  await expect(h1(page, 'Abonnements')).toBeVisible();
  const current = page.getByRole('region', { name: 'Abonnement actuel' });
  await expect(current).toContainText('Standard, mensuel');
  const standard = page.getByRole('article', { name: 'Standard' });
  await expect(standard).toContainText('Formule actuelle');
  await expect(standard).toContainText('EUR 45.00');

  // The preview: applies now, credits the unused Standard days and charges Professional for the rest of the month.
  await page
    .getByRole('article', { name: 'Professional' })
    .getByRole('button', { name: 'Passer à Professional' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Passer à Professional (mensuel)' });
  await expect(dialog.getByRole('spinbutton', { name: 'Nombre d’utilisateurs' })).toHaveValue('15');
  await dialog.getByRole('button', { name: 'Voir l’aperçu' }).click();
  await expect(dialog).toContainText('S’applique immédiatement');
  const charged = dialog.getByRole('table', { name: 'Facturé maintenant' });
  await expect(charged).toContainText('Professional, mensuel · au prorata');
  await expect(charged).toContainText('Crédit pour la période non utilisée : Standard, mensuel · au prorata');
  await expect(charged).toContainText(/TVA 8,1\s?% sur/);
  const confirm = dialog.getByRole('button', { name: /^Confirmer et facturer / });
  const total = (await confirm.textContent())!.replace('Confirmer et facturer ', '');
  expect(total).toMatch(/^EUR [\d']+\.\d\d$/);
  await expect(charged.getByRole('row', { name: `Total EUR TVA incluse ${total}` })).toBeVisible();

  await confirm.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('L’abonnement a été modifié.')).toBeVisible();
  await expect(current).toContainText('Professional, mensuel');
  await expect(page.getByRole('article', { name: 'Professional' })).toContainText('Formule actuelle');

  // The billing page lists the invoice of the change, issued today for the previewed total.
  await page
    .getByRole('navigation', { name: 'Navigation principale' })
    .getByRole('link', { name: 'Facturation' })
    .click();
  await expect(h1(page, 'Facturation')).toBeVisible();
  await network.quiet();
  const row = page.getByRole('row').filter({ hasText: total }).first();
  await expect(row).toBeVisible();
  const number = (await row.getByRole('rowheader').getByRole('button').textContent())!.trim();
  expect(number).toMatch(/^\d{4}-\d{6}$/);

  // Its details name the change and the prorated lines.
  await row.getByRole('button', { name: number, exact: true }).click();
  const details = page.getByRole('dialog', { name: `Facture ${number}` });
  await expect(details).toContainText('Modification de l’abonnement');
  await expect(details).toContainText('Professional, mensuel');
  await expect(details).toContainText('au prorata');
  await details.getByRole('button', { name: 'Fermer' }).click();
  await expect(details).toHaveCount(0);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: `Télécharger le PDF de la facture ${number}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const pdf = fs.readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(10_000);
});
