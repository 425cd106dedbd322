// What a person typed into their name never becomes a link in a mail: mail programs link addresses and host names in
// both parts by themselves, so a name that looks like one is left out of the greeting; other names are escaped in
// the HTML part and shortened.
import { describe, expect, it } from 'vitest';
import type { Identity } from './identities.ts';
import { actionMail } from './mails.ts';

const identity = (name: string): Identity => ({
  id: 'id',
  email: 'anna@example.com',
  name,
  emailVerified: true,
  locale: 'de',
  createdAt: new Date(),
});
const LINK = 'https://portal.example/realms/portal/login-actions/x/reset?key=k';
const mail = (name: string) => actionMail('reset-password', identity(name), LINK, 'Portal');

describe('user text in mails', () => {
  it.each([
    'Visit https://evil.example/win now',
    'www.evil.example',
    'evil.example',
    'Anna EVIL.EXAMPLE.COM',
    'mail me at x@evil.example',
    'ftp://evil.example',
    'Anna evil。example',
  ])('leaves the link-like name %j out of both parts', (name) => {
    const { text, html, subject } = mail(name);
    for (const part of [text, html!, subject]) {
      expect(part.toLowerCase()).not.toMatch(/evil|win now|mail me/);
    }
    expect(text.split('\n')[0]).toBe('Guten Tag,');
    // The mail's own link is still there.
    expect(text).toContain(LINK);
  });

  it('keeps an ordinary name, escapes it in the HTML part and shortens a long one', () => {
    expect(mail('Anna Muster').text.split('\n')[0]).toBe('Guten Tag Anna Muster,');
    expect(mail('Dr. Anna Müller-Lüdenscheid').text.split('\n')[0]).toBe(
      'Guten Tag Dr. Anna Müller-Lüdenscheid,',
    );
    const tagged = mail('<b>Anna<i> & "Co"');
    expect(tagged.html).toContain('Guten Tag &lt;b&gt;Anna&lt;i&gt; &amp; &quot;Co&quot;,');
    expect(tagged.html).not.toContain('<b>Anna');
    const long = mail(`Anna ${'Muster'.repeat(30)}`).text.split('\n')[0]!;
    expect(long.length).toBeLessThanOrEqual('Guten Tag ,'.length + 60);
    expect(long).toMatch(/…,$/);
  });

  it('never puts the address in the greeting when the name is empty', () => {
    expect(mail('').text.split('\n')[0]).toBe('Guten Tag,');
  });
});
