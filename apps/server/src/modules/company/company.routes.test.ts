import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi } from '../../test/api.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const profileUrl = (account: string) => `/api/accounts/${account}/company/v1/profile`;
const logoUrl = (account: string) => `/api/accounts/${account}/company/v1/logo`;

const VALID = {
  legalName: 'Muster AG',
  street: 'Seestrasse 5',
  postcode: '8002',
  city: 'Zürich',
  country: 'CH',
  // Swisscom AG's UID, written without separators: stored as CHE-101.654.423.
  uid: 'che101654423',
  vatNumber: null,
  billingEmail: 'rechnungen@example.com',
  phone: '+41 44 555 66 77',
  website: 'https://muster.example.com',
};

// The smallest valid PNG (1×1 pixel) and the start of a JPEG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const upload = (fileName: string, content: Buffer | string) => ({
  fileName,
  content: Buffer.from(content).toString('base64'),
});

describeApi('company profile API', (api) => {
  it('shows the seeded profile to an admin: the account name and country with address, UID and logo', async () => {
    const res = await api.request('GET', profileUrl(MUSTER), { as: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      legalName: 'Muster AG',
      country: 'CH',
      city: 'Zürich',
      uid: 'CHE-123.456.788',
      vatNumber: null,
      logo: { contentType: 'image/svg+xml', fileName: 'logo.svg' },
    });
  });

  it('refuses an employee (403) and a member of another account (404), reading and writing', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', VALID],
    ] as const) {
      const employee = await api.request(method, profileUrl(MUSTER), { as: 'employee', body });
      expect(employee.statusCode).toBe(403);
      const stranger = await api.request(method, profileUrl(MUSTER), { as: 'inhaber', body });
      expect(stranger.statusCode).toBe(404);
      expect(stranger.body).not.toContain('Muster');
    }
    const upload403 = await api.request('PUT', logoUrl(MUSTER), {
      as: 'employee',
      body: upload('a.png', PNG),
    });
    expect(upload403.statusCode).toBe(403);
    const delete404 = await api.request('DELETE', logoUrl(MUSTER), { as: 'inhaber' });
    expect(delete404.statusCode).toBe(404);
  });

  it('saves the profile: the UID written canonically, name and country on the account, one audit entry', async () => {
    const res = await api.request('PUT', profileUrl(MUSTER), { as: 'admin', body: VALID });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ...VALID, uid: 'CHE-101.654.423', street: 'Seestrasse 5' });
    const [entry] = await api.audit(MUSTER);
    expect(entry).toMatchObject({ action: 'company.update', actor_uuid: DEMO_USERS.admin.id });
    const { rows } = await api.db.query<{ before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select before, after from audit_log where account_uuid = $1 and action = 'company.update'
        order by id desc limit 1`,
      [MUSTER],
    );
    expect(rows[0]!.before).toMatchObject({ street: 'Bahnhofstrasse 10', uid: 'CHE-123.456.788' });
    expect(rows[0]!.after).toMatchObject({ street: 'Seestrasse 5', uid: 'CHE-101.654.423' });
    expect(rows[0]!.after).not.toHaveProperty('legalName');

    // Saving the same again changes nothing and logs nothing.
    const count = (await api.audit(MUSTER)).length;
    await api.request('PUT', profileUrl(MUSTER), { as: 'admin', body: VALID });
    expect((await api.audit(MUSTER)).length).toBe(count);
  });

  it('renames the account through its legal name; a name the user already has is a 409 on the field', async () => {
    const renamed = await api.request('PUT', profileUrl(MUSTER), {
      as: 'owner',
      body: { ...VALID, legalName: 'Muster Holding AG' },
    });
    expect(renamed.statusCode).toBe(200);
    const account = await api.request('GET', `/api/accounts/v1/accounts/${MUSTER}`, { as: 'owner' });
    expect(account.json().data.name).toBe('Muster Holding AG');
    const taken = await api.request('PUT', profileUrl(MUSTER), {
      as: 'owner',
      body: { ...VALID, legalName: 'beispiel gmbh' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().details.fields).toHaveProperty('legalName');
    await api.request('PUT', profileUrl(MUSTER), { as: 'owner', body: VALID });
  });

  it('refuses a UID with a wrong check digit or format (422 on the field) and changes nothing', async () => {
    const before = (await api.request('GET', profileUrl(MUSTER), { as: 'admin' })).json().data;
    const count = (await api.audit(MUSTER)).length;
    const digit = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: { ...VALID, uid: 'CHE-101.654.424', street: 'Anderswo 1' },
    });
    expect(digit.statusCode).toBe(422);
    expect(digit.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { uid: 'uidCheckDigit' } },
    });
    const format = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: { ...VALID, uid: '12345' },
    });
    expect(format.json().details.fields).toEqual({ uid: 'uid' });
    expect((await api.request('GET', profileUrl(MUSTER), { as: 'admin' })).json().data).toEqual(before);
    expect((await api.audit(MUSTER)).length).toBe(count);
  });

  it('checks every other field and reports all problems at once', async () => {
    const res = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: {
        ...VALID,
        legalName: '  ',
        street: '',
        postcode: '800',
        city: ' ',
        billingEmail: 'rechnungen@',
        phone: '12',
        website: 'javascript:alert(1)',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.fields).toEqual({
      legalName: 'required',
      street: 'required',
      postcode: 'postcode',
      city: 'required',
      billingEmail: 'email',
      phone: 'phone',
      website: 'url',
    });
    const unknownCountry = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: { ...VALID, country: 'ZZ' },
    });
    expect(unknownCountry.json().details.fields).toHaveProperty('country');
  });

  it('takes a UID only in Switzerland and a VAT number only elsewhere', async () => {
    const uidAbroad = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: { ...VALID, country: 'DE', postcode: '80331', city: 'München' },
    });
    expect(uidAbroad.json().details.fields).toEqual({ uid: 'uidOnlySwiss' });
    const vatHome = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: { ...VALID, vatNumber: 'DE123456789' },
    });
    expect(vatHome.json().details.fields).toEqual({ vatNumber: 'vatNumberNotSwiss' });
    const badVat = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: { ...VALID, country: 'DE', postcode: '80331', uid: null, vatNumber: 'FR123' },
    });
    expect(badVat.json().details.fields).toEqual({ vatNumber: 'vatNumber' });
    const german = await api.request('PUT', profileUrl(MUSTER), {
      as: 'admin',
      body: {
        ...VALID,
        country: 'DE',
        postcode: '80331',
        city: 'München',
        uid: '',
        vatNumber: 'de 123 456 789',
      },
    });
    expect(german.statusCode).toBe(200);
    expect(german.json().data).toMatchObject({ country: 'DE', uid: null, vatNumber: 'DE123456789' });
    await api.request('PUT', profileUrl(MUSTER), { as: 'admin', body: VALID });
  });

  it('uploads a PNG logo, serves it to every member with safe headers, and 404 to another account', async () => {
    const res = await api.request('PUT', logoUrl(MUSTER), {
      as: 'admin',
      body: upload('Firmenlogo.png', PNG),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.logo).toMatchObject({
      contentType: 'image/png',
      size: PNG.length,
      fileName: 'Firmenlogo.png',
    });
    const [entry] = await api.audit(MUSTER);
    expect(entry).toMatchObject({ action: 'company.logo.upload', actor_uuid: DEMO_USERS.admin.id });

    const served = await api.request('GET', logoUrl(MUSTER), { as: 'employee' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBe(
      `inline; filename="Firmenlogo.png"; filename*=UTF-8''Firmenlogo.png`,
    );
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const again = await api.request('GET', logoUrl(MUSTER), {
      as: 'employee',
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const stranger = await api.request('GET', logoUrl(MUSTER), { as: 'inhaber' });
    expect(stranger.statusCode).toBe(404);
    const anonymous = await api.request('GET', logoUrl(MUSTER), {});
    expect(anonymous.statusCode).toBe(401);
  });

  it('names the file after its real type: a JPEG called .png is stored and served as JPEG', async () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0'),
      Buffer.alloc(64),
    ]);
    const res = await api.request('PUT', logoUrl(MUSTER), { as: 'admin', body: upload('bild.png', jpeg) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.logo).toMatchObject({ contentType: 'image/jpeg', fileName: 'bild.jpg' });
    const served = await api.request('GET', logoUrl(MUSTER), { as: 'admin' });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a file with a PNG name but HTML content, other types and oversize files (422, nothing changed)', async () => {
    const before = (await api.request('GET', profileUrl(MUSTER), { as: 'admin' })).json().data.logo;
    const cases: [string, Buffer | string, string][] = [
      ['logo.png', '<html><script>alert(1)</script></html>', 'logoType'],
      ['logo.png', '%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'logoType'],
      ['logo.gif', Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'), 'logoType'],
      ['logo.svg', '<?xml version="1.0"?><html><body>Hallo</body></html>', 'logoType'],
      ['logo.svg', Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xff, 0xfe]), 'logoType'],
      ['logo.png', Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]), 'logoTooLarge'],
    ];
    for (const [name, content, problem] of cases) {
      const res = await api.request('PUT', logoUrl(MUSTER), { as: 'admin', body: upload(name, content) });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().details.fields, name).toEqual({ logo: problem });
    }
    const notBase64 = await api.request('PUT', logoUrl(MUSTER), {
      as: 'admin',
      body: { fileName: 'logo.png', content: 'not base64!' },
    });
    expect(notBase64.statusCode).toBe(422);
    // Far beyond the limit the body itself is refused before it is read.
    const huge = await api.request('PUT', logoUrl(MUSTER), {
      as: 'admin',
      body: upload('logo.png', Buffer.alloc(LOGO_MAX_BYTES * 2)),
    });
    expect(huge.statusCode).toBe(413);
    expect((await api.request('GET', profileUrl(MUSTER), { as: 'admin' })).json().data.logo).toEqual(before);
  });

  it('sanitises an SVG: scripts, handlers and javascript: links are gone, the drawing stays', async () => {
    const svg = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <a xlink:href="javascript:alert(2)"><rect width="10" height="10" fill="#c8102e"/></a>
  <foreignObject><iframe src="https://evil.example"></iframe></foreignObject>
  <circle cx="5" cy="5" r="3" onclick="alert(3)"/>
</svg>`;
    const res = await api.request('PUT', logoUrl(MUSTER), { as: 'admin', body: upload('logo.svg', svg) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.logo.contentType).toBe('image/svg+xml');
    const served = await api.request('GET', logoUrl(MUSTER), { as: 'admin' });
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    const text = served.body;
    expect(text).toContain('<rect');
    expect(text).toContain('<circle');
    for (const bad of ['script', 'onload', 'onclick', 'javascript:', 'foreignObject', 'iframe']) {
      expect(text).not.toContain(bad);
    }
  });

  it('removes the logo (audited); then there is none to serve', async () => {
    const res = await api.request('DELETE', logoUrl(MUSTER), { as: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.logo).toBeNull();
    expect((await api.audit(MUSTER))[0]).toMatchObject({ action: 'company.logo.remove' });
    expect((await api.request('GET', logoUrl(MUSTER), { as: 'admin' })).statusCode).toBe(404);
    const { rows } = await api.db.query(
      `select 1 from files where account_uuid = $1 and purpose = 'company-logo'`,
      [MUSTER],
    );
    expect(rows).toEqual([]);
  });

  it('starts an account without a profile from its name and country', async () => {
    const res = await api.request('GET', profileUrl(BEISPIEL), { as: 'inhaber' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      legalName: 'Beispiel GmbH',
      country: 'DE',
      street: null,
      uid: null,
      logo: null,
      updatedAt: null,
    });
  });
});

const FILES_DIR = path.join(os.tmpdir(), `portal-test-files-${process.pid}`);

describeApi(
  'company logo in a files folder',
  (api) => {
    afterAll(() => fs.rmSync(FILES_DIR, { recursive: true, force: true }));

    it('keeps the bytes in the folder and serves them from there', async () => {
      const res = await api.request('PUT', logoUrl(MUSTER), { as: 'admin', body: upload('logo.png', PNG) });
      expect(res.statusCode).toBe(200);
      const { rows } = await api.db.query<{ content: unknown }>(
        `select content from files where account_uuid = $1 and purpose = 'company-logo'`,
        [MUSTER],
      );
      expect(rows).toEqual([{ content: null }]);
      const served = await api.request('GET', logoUrl(MUSTER), { as: 'employee' });
      expect(served.rawPayload.equals(PNG)).toBe(true);
    });
  },
  { env: { FILES_DIR: FILES_DIR } },
);
