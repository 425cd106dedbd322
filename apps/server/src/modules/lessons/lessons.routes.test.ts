import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { LessonCourse, LessonDetail } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { DEMO_LESSONS } from '../../demo/lessons.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { allowStaff } from '../../test/support-tickets.ts';

const MUSTER: string = DEMO_ACCOUNTS.muster;
const BEISPIEL: string = DEMO_ACCOUNTS.beispiel;
const base = (account: string) => `/api/accounts/${account}/lessons/v1`;

async function course(api: TestApi, as: DemoLogin, account = MUSTER, lang?: string): Promise<LessonCourse> {
  const res = await api.request('GET', `${base(account)}/course${lang ? `?lang=${lang}` : ''}`, { as });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: LessonCourse }>().data;
}

async function complete(api: TestApi, as: DemoLogin, lesson: string, completed = true, account = MUSTER) {
  return api.request('PUT', `${base(account)}/lessons/${lesson}/completion`, { as, body: { completed } });
}

const open = (api: TestApi, as: DemoLogin, lesson: string, account = MUSTER) =>
  api.request('POST', `${base(account)}/lessons/${lesson}/opened`, { as });

describeApi('lessons API', (api) => {
  let uuids: string[];
  beforeAll(async () => {
    uuids = (await course(api, 'employee')).lessons.map((lesson) => lesson.uuid);
  });

  it('shows every member the course in order, in their language, with nothing done for a newcomer', async () => {
    const data = await course(api, 'employee');
    expect(data.accountName).toBe('Muster AG');
    expect(data.lessons.map((l) => l.title)).toEqual(DEMO_LESSONS.map((l) => l.texts.de.title));
    expect(data.lessons.map((l) => l.number)).toEqual([1, 2, 3, 4, 5]);
    expect(
      data.lessons.every((l) => l.language === 'de' && l.openedAt === null && l.completedAt === null),
    ).toBe(true);
    const minutes = DEMO_LESSONS.reduce((sum, l) => sum + l.minutes, 0);
    expect(data).toMatchObject({ completed: 0, total: 5, minutesLeft: minutes, resumeLessonUuid: uuids[0] });
    for (const login of ['admin', 'coach', 'owner'] as const) {
      expect((await course(api, login)).total).toBe(5);
    }
  });

  it("reads in the language asked for, else the reader's own, with German where a lesson lacks it", async () => {
    expect((await course(api, 'employee', MUSTER, 'fr')).lessons[0]).toMatchObject({
      title: 'Comptes et membres',
      language: 'fr',
    });
    // The unverified demo login reads English by its own setting.
    expect((await course(api, 'unverified')).lessons[0]!.title).toBe('Accounts and members');
    await api.db.query(`delete from lesson_translations where lesson_uuid = $1 and language = 'it'`, [
      uuids[2],
    ]);
    const italian = await course(api, 'employee', MUSTER, 'it');
    expect(italian.lessons[1]).toMatchObject({ title: 'Fatturazione e QR-fattura', language: 'it' });
    expect(italian.lessons[2]).toMatchObject({ title: 'Support-Anfragen', language: 'de' });
    const detail = await api.request('GET', `${base(MUSTER)}/lessons/${uuids[2]}?lang=it`, {
      as: 'employee',
    });
    expect(detail.json().data).toMatchObject({ language: 'de', title: 'Support-Anfragen' });
    const bad = await api.request('GET', `${base(MUSTER)}/course?lang=xx`, { as: 'employee' });
    expect(bad.statusCode).toBe(422);
  });

  it('answers one lesson with its text as sanitised HTML and its neighbours', async () => {
    const res = await api.request('GET', `${base(MUSTER)}/lessons/${uuids[1]}`, { as: 'employee' });
    expect(res.statusCode).toBe(200);
    const lesson = res.json<{ data: LessonDetail }>().data;
    expect(lesson).toMatchObject({
      uuid: uuids[1],
      number: 2,
      title: 'Rechnungen und QR-Rechnung',
      minutes: 5,
      previousUuid: uuids[0],
      nextUuid: uuids[2],
    });
    expect(lesson.html).toContain('<h3>Bezahlen mit der QR-Rechnung</h3>');
    expect(lesson.html).toContain(
      '<a href="https://www.einfach-zahlen.ch" target="_blank" rel="noopener noreferrer">einfach-zahlen.ch</a>',
    );
    const first = await api.request('GET', `${base(MUSTER)}/lessons/${uuids[0]}`, { as: 'employee' });
    expect(first.json().data.previousUuid).toBeNull();
    const last = await api.request('GET', `${base(MUSTER)}/lessons/${uuids[4]}`, { as: 'employee' });
    expect(last.json().data.nextUuid).toBeNull();
  });

  it('sanitises what a lesson text carries: no scripts, handlers, javascript: links or frames', async () => {
    const { rows } = await api.db.query<{ uuid: string }>(
      `insert into lessons (slug, account_uuid, position, minutes) values ('test-hostile', $1, 999, 1) returning uuid`,
      [MUSTER],
    );
    const hostile = rows[0]!.uuid;
    await api.db.query(
      `insert into lesson_translations (lesson_uuid, language, title, content_md) values ($1, 'de', 'Böse', $2)`,
      [
        hostile,
        [
          '<script>alert(1)</script>',
          '<img src=x onerror=alert(2)>',
          '[klick](javascript:alert(3))',
          '<iframe src="https://evil.test"></iframe>',
          '<b onclick="alert(4)">fett</b>',
        ].join('\n\n'),
      ],
    );
    try {
      const res = await api.request('GET', `${base(MUSTER)}/lessons/${hostile}`, { as: 'employee' });
      const { html } = res.json<{ data: LessonDetail }>().data;
      expect(html).not.toMatch(/script|onerror|onclick|javascript|iframe|<img|alert|href/i);
      expect(html).toContain('fett');
      expect(html).toContain('klick');
    } finally {
      await api.db.query('delete from lessons where uuid = $1', [hostile]);
    }
  });

  it('records progress per person: complete, not complete, overall progress and minutes left', async () => {
    const minutes = DEMO_LESSONS.map((l) => l.minutes);
    const total = minutes.reduce((a, b) => a + b, 0);
    const done = await complete(api, 'admin', uuids[0]!);
    expect(done.statusCode).toBe(200);
    const after = done.json<{ data: LessonCourse }>().data;
    expect(after).toMatchObject({ completed: 1, total: 5, minutesLeft: total - minutes[0]! });
    expect(after.lessons[0]!.completedAt).not.toBeNull();
    expect(after.lessons[0]!.openedAt).not.toBeNull();
    // Completing again keeps the first completion's time.
    const again = (await complete(api, 'admin', uuids[0]!)).json<{ data: LessonCourse }>().data;
    expect(again.lessons[0]!.completedAt).toBe(after.lessons[0]!.completedAt);
    // Another member of the same account sees none of it.
    expect((await course(api, 'employee')).completed).toBe(0);
    // Not complete again.
    const undone = (await complete(api, 'admin', uuids[0]!, false)).json<{ data: LessonCourse }>().data;
    expect(undone).toMatchObject({ completed: 0, minutesLeft: total });
    expect(undone.lessons[0]!.completedAt).toBeNull();
    const bad = await api.request('PUT', `${base(MUSTER)}/lessons/${uuids[0]}/completion`, {
      as: 'admin',
      body: { completed: 'yes' },
    });
    expect(bad.statusCode).toBe(422);
    expect((await course(api, 'admin')).completed).toBe(0);
  });

  it('resumes at the lesson last opened, and after completing it at the next one not completed', async () => {
    const as = 'coach';
    expect((await course(api, as)).resumeLessonUuid).toBe(uuids[0]);
    let data = (await open(api, as, uuids[2]!)).json<{ data: LessonCourse }>().data;
    expect(data.resumeLessonUuid).toBe(uuids[2]);
    expect(data.lessons[2]!.openedAt).not.toBeNull();
    data = (await complete(api, as, uuids[2]!)).json<{ data: LessonCourse }>().data;
    expect(data.resumeLessonUuid).toBe(uuids[3]);
    // Opening an earlier one moves the resume point back to it.
    await open(api, as, uuids[1]!);
    expect((await course(api, as)).resumeLessonUuid).toBe(uuids[1]);
    // The last lesson completed: the first one not completed from the start.
    await open(api, as, uuids[4]!);
    data = (await complete(api, as, uuids[4]!)).json<{ data: LessonCourse }>().data;
    expect(data.resumeLessonUuid).toBe(uuids[0]);
    for (const uuid of uuids) await complete(api, as, uuid);
    expect(await course(api, as)).toMatchObject({ completed: 5, minutesLeft: 0, resumeLessonUuid: null });
  });

  it("keeps progress per account: the same person's progress in another account is separate", async () => {
    // The demo owner is OWNER of Muster AG (first lesson done, second opened) and EMPLOYEE of Beispiel GmbH.
    const muster = await course(api, 'owner');
    expect(muster).toMatchObject({ completed: 1, resumeLessonUuid: uuids[1] });
    const beispiel = await course(api, 'owner', BEISPIEL);
    expect(beispiel).toMatchObject({
      accountName: 'Beispiel GmbH',
      completed: 0,
      resumeLessonUuid: uuids[0],
    });
  });

  it("answers 404 for another account's course, its lessons and progress, and 401 without sign-in", async () => {
    // The French owner of Beispiel GmbH is no member of Muster AG.
    const other = 'newowner';
    for (const [method, url, body] of [
      ['GET', `${base(MUSTER)}/course`, undefined],
      ['GET', `${base(MUSTER)}/lessons/${uuids[0]}`, undefined],
      ['POST', `${base(MUSTER)}/lessons/${uuids[0]}/opened`, undefined],
      ['PUT', `${base(MUSTER)}/lessons/${uuids[0]}/completion`, { completed: true }],
    ] as const) {
      const res = await api.request(method, url, { as: other, body });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Muster');
      expect((await api.request(method, url, { body })).statusCode).toBe(401);
    }
    const { rows } = await api.db.query('select 1 from lesson_progress where user_uuid = $1', [
      DEMO_USERS.newowner.id,
    ]);
    expect(rows).toHaveLength(0);
    // An unknown account reads the same as one the caller may not see.
    const unknown = await api.request('GET', `${base(crypto.randomUUID())}/course`, { as: other });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses (404) a lesson offered only to another account, and an unknown lesson, changing nothing', async () => {
    const { rows } = await api.db.query<{ uuid: string }>(
      `insert into lessons (slug, account_uuid, position, minutes) values ('test-beispiel-only', $1, 5, 2)
       returning uuid`,
      [BEISPIEL],
    );
    const own = rows[0]!.uuid;
    await api.db.query(
      `insert into lesson_translations (lesson_uuid, language, title, content_md)
       values ($1, 'de', 'Nur für Beispiel', 'Interna der Beispiel GmbH')`,
      [own],
    );
    // Beispiel GmbH sees it first in its course; Muster AG never does.
    expect((await course(api, 'inhaber', BEISPIEL)).lessons[0]).toMatchObject({ uuid: own, number: 1 });
    expect((await course(api, 'employee')).lessons.some((l) => l.uuid === own)).toBe(false);
    for (const lesson of [own, crypto.randomUUID()]) {
      const read = await api.request('GET', `${base(MUSTER)}/lessons/${lesson}`, { as: 'admin' });
      expect(read.statusCode).toBe(404);
      expect(read.body).not.toContain('Interna');
      expect((await open(api, 'admin', lesson)).statusCode).toBe(404);
      expect((await complete(api, 'admin', lesson)).statusCode).toBe(404);
    }
    const progress = await api.db.query('select 1 from lesson_progress where lesson_uuid = $1', [own]);
    expect(progress.rows).toHaveLength(0);
  });

  it('lets support staff read the course while the customer allows it, keeping no progress there', async () => {
    await allowStaff(api, MUSTER, DEMO_USERS.owner.id);
    const data = await course(api, 'agent');
    expect(data).toMatchObject({ total: 5, completed: 0 });
    const refused = await complete(api, 'agent', uuids[0]!);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'STAFF_READ_ONLY']);
    expect((await course(api, 'employee')).lessons[0]!.completedAt).toBeNull();
  });
});
