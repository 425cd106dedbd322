import { describe, expect, it } from 'vitest';
import { transferAnswerMail, transferOfferMail } from './ownership.mails.ts';

const base = {
  to: { email: 'admin@example.com', name: 'Adrian Admin', language: 'de' },
  ownerName: 'Olivia Owner',
  accountName: 'Muster AG',
  expiresAt: new Date('2026-11-29T15:51:00Z'),
  link: 'https://portal.example.com/?uuid=6f1c2b1e-0002-4000-8000-000000000001',
  product: 'Portal',
};

describe('transfer offer mail', () => {
  it('speaks the recipient’s language, names both people and the account, and says until when', () => {
    const mail = transferOfferMail(base);
    expect(mail.subject).toBe('Portal: Inhaberschaft von «Muster AG» übernehmen?');
    expect(mail.text).toContain('Guten Tag Adrian Admin,');
    expect(mail.text).toContain(
      'Olivia Owner möchte Ihnen die Inhaberschaft des Kontos «Muster AG» übertragen.',
    );
    expect(mail.text).toContain('Olivia Owner wird Administrator.');
    expect(mail.text).toContain('bis am 29. November 2026 um 16:51');
    expect(mail.text).toContain(base.link);
    const french = transferOfferMail({ ...base, to: { ...base.to, language: 'fr' } });
    expect(french.subject).toBe('Portal\u00a0: Reprendre la propriété de «\u00a0Muster AG\u00a0»\u202f?');
  });

  it('leaves out names a mail program could turn into links, and escapes the HTML part', () => {
    const mail = transferOfferMail({
      ...base,
      ownerName: 'visit evil.example',
      accountName: 'Müller & Söhne <AG>',
    });
    expect(mail.text).not.toContain('evil.example');
    expect(mail.text).toContain('die Inhaberin oder der Inhaber möchte Ihnen');
    expect(mail.html).toContain('Müller &amp; Söhne &lt;AG&gt;');
    expect(mail.html).not.toContain('<AG>');
  });

  it('tells the owner the answer in the owner’s language', () => {
    const mail = transferAnswerMail({
      answer: 'DECLINED',
      to: { email: 'owner@example.com', name: 'Olivia Owner', language: 'en' },
      adminName: 'Adrian Admin',
      accountName: 'Muster AG',
      link: 'https://portal.example.com/settings/ownership?uuid=6f1c2b1e-0002-4000-8000-000000000001',
      product: 'Portal',
    });
    expect(mail.to).toBe('owner@example.com');
    expect(mail.subject).toBe('Portal: Adrian Admin declined the ownership of “Muster AG”');
    expect(mail.text).toContain('You remain the owner.');
    expect(mail.html).toContain('>Open ownership</a>');
  });
});
