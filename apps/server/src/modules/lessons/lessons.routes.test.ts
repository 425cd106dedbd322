import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { LessonCourse, LessonDetail } from '@portal/contract';
import type {
  AuthoredCourse,
  AuthoredLesson,
  CourseProgress,
  LessonImage,
} from '@portal/contract/lesson-authoring';
import { LESSON_IMAGE_MAX_BYTES, LESSON_IMAGE_PATH } from '@portal/contract/lesson-authoring';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { DEMO_COURSE, DEMO_LESSONS, DEMO_LESSON_UUIDS, seedDemoLessons } from '../../demo/lessons.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { allowStaff } from '../../test/support-tickets.ts';

const MUSTER: string = DEMO_ACCOUNTS.muster;
const BEISPIEL: string = DEMO_ACCOUNTS.beispiel;
/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
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
      `insert into lessons (slug, account_uuid, position, minutes, course_uuid, version, published_at)
       values ('test-hostile', $1, 999, 1, $2, 1, now()) returning uuid`,
      [MUSTER, DEMO_COURSE.uuid],
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
      `insert into lessons (slug, account_uuid, position, minutes, course_uuid, version, published_at)
       values ('test-beispiel-only', $1, 5, 2, $2, 1, now()) returning uuid`,
      [BEISPIEL, DEMO_COURSE.uuid],
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

  // The teachers' side (issue 26 item 2): the rules that keep learners on the published version.
  const authoring = '/api/lesson-authoring/v1';
  const texts = (de: string, more: Partial<Record<'en' | 'fr' | 'it', string>> = {}) => ({
    de,
    en: '',
    fr: '',
    it: '',
    ...more,
  });

  it('lets TEACHER and PORTAL_ADMIN write lessons, refusing customers and support staff, with drafts invisible to learners', async () => {
    // SUPPORT_AGENT and SUPPORT_MANAGER rank between them in SPEC's order, yet write no lessons.
    for (const login of ['owner', 'coach', 'agent', 'billing'] as const) {
      const refused = await api.request('GET', `${authoring}/courses`, { as: login });
      expect(refused.statusCode).toBe(403);
    }
    const listed = await api.request('GET', `${authoring}/courses`, { as: 'portalAdmin' });
    expect(listed.statusCode).toBe(200);
    const list = await api.request('GET', `${authoring}/courses`, { as: 'teacher' });
    const [demo] = list.json<{ data: AuthoredCourse[] }>().data;
    expect(demo).toMatchObject({ uuid: DEMO_COURSE.uuid, title: DEMO_COURSE.title, audience: 'all' });
    const seeded = demo!.lessons.filter((l) => DEMO_LESSON_UUIDS.includes(l.uuid));
    expect(seeded.map((l) => [l.title, l.state, l.version])).toEqual(
      DEMO_LESSONS.map((l) => [l.texts.de.title, 'published', 1]),
    );

    // A new lesson is a draft: the learners' course does not show it until it is published.
    const before = (await course(api, 'employee')).total;
    const created = await api.request('POST', `${authoring}/courses/${DEMO_COURSE.uuid}/lessons`, {
      as: 'teacher',
      body: { minutes: 2, title: texts('Neue Lektion'), body: texts('Neu **hier**') },
    });
    expect(created.statusCode).toBe(201);
    const lesson = created.json<{ data: AuthoredLesson }>().data;
    expect(lesson).toMatchObject({ state: 'draft', version: 0, publishedAt: null });
    expect((await course(api, 'employee')).total).toBe(before);
    const hidden = await api.request('GET', `${base(MUSTER)}/lessons/${lesson.uuid}`, { as: 'employee' });
    expect(hidden.statusCode).toBe(404);
    const published = await api.request('POST', `${authoring}/lessons/${lesson.uuid}/publication`, {
      as: 'teacher',
    });
    expect(published.json<{ data: AuthoredLesson }>().data).toMatchObject({ state: 'published', version: 1 });
    const after = await course(api, 'employee');
    expect(after.lessons.at(-1)).toMatchObject({ uuid: lesson.uuid, title: 'Neue Lektion' });

    // Reordered by the teacher, the learners read the new order.
    const order = [lesson.uuid, ...demo!.lessons.map((l) => l.uuid)];
    const ordered = await api.request('PUT', `${authoring}/courses/${DEMO_COURSE.uuid}/order`, {
      as: 'teacher',
      body: { lessonUuids: order },
    });
    expect(ordered.statusCode).toBe(200);
    expect((await course(api, 'employee')).lessons[0]!.uuid).toBe(lesson.uuid);
    // An order that misses a lesson (someone added one meanwhile) is refused.
    const stale = await api.request('PUT', `${authoring}/courses/${DEMO_COURSE.uuid}/order`, {
      as: 'teacher',
      body: { lessonUuids: order.slice(1) },
    });
    expect([stale.statusCode, stale.json().details.fields]).toEqual([
      422,
      { lessonUuids: 'courseOrderStale' },
    ]);
  });

  it("publishes a new version that learners read in their language, keeping everyone's progress", async () => {
    const first = DEMO_LESSON_UUIDS[0]!;
    await complete(api, 'owner', first);
    const draft = {
      minutes: 7,
      title: texts('Konten, Mitglieder und Rollen', { it: 'Account, membri e ruoli' }),
      body: texts('Neuer Text', { it: 'Testo nuovo' }),
    };
    const saved = await api.request('PUT', `${authoring}/lessons/${first}`, { as: 'teacher', body: draft });
    expect(saved.json<{ data: AuthoredLesson }>().data).toMatchObject({
      state: 'changed',
      version: 1,
      ...draft,
    });
    // The teacher's list names the lesson in every language (the page shows the interface language's).
    const listed = await api.request('GET', `${authoring}/courses`, { as: 'teacher' });
    const summary = listed
      .json<{ data: AuthoredCourse[] }>()
      .data.flatMap((c) => c.lessons)
      .find((l) => l.uuid === first);
    expect(summary).toMatchObject({ title: draft.title.de, titles: draft.title });
    // Learners still read the published version while the draft waits.
    const reading = async () =>
      (await api.request('GET', `${base(MUSTER)}/lessons/${first}?lang=it`, { as: 'owner' })).json<{
        data: LessonDetail;
      }>().data;
    expect((await reading()).title).toBe('Account e membri');
    await api.request('POST', `${authoring}/lessons/${first}/publication`, { as: 'teacher' });
    expect(await reading()).toMatchObject({ title: 'Account, membri e ruoli', minutes: 7, language: 'it' });
    expect((await reading()).html).toContain('Testo nuovo');
    // French was left empty: it reads German now.
    const french = await course(api, 'employee', MUSTER, 'fr');
    expect(french.lessons.find((l) => l.uuid === first)).toMatchObject({ language: 'de' });
    // The owner's completion stays with the new version, and the overview counts it without a name.
    expect((await course(api, 'owner')).lessons.find((l) => l.uuid === first)!.completedAt).not.toBeNull();
    const progress = await api.request('GET', `${authoring}/courses/${DEMO_COURSE.uuid}/progress`, {
      as: 'teacher',
    });
    const counts = progress.json<{ data: CourseProgress }>().data;
    const { rows } = await api.db.query<{ people: number | string; accounts: number | string }>(
      `select count(*) as people, count(distinct account_uuid) as accounts
         from lesson_progress where lesson_uuid = $1 and completed_at is not null`,
      [first],
    );
    expect(counts.lessons.find((l) => l.uuid === first)).toMatchObject({
      finishedPeople: Number(rows[0]!.people),
      finishedAccounts: Number(rows[0]!.accounts),
    });
    expect(counts.startedPeople).toBeGreaterThanOrEqual(1);
    expect(progress.body).not.toContain(DEMO_USERS.owner.email);
  });

  it('refuses with field errors what the rules forbid, changing nothing, and offers a course by plan', async () => {
    const lesson = DEMO_LESSON_UUIDS[1]!;
    const refuse = async (body: unknown, fields: Record<string, string>) => {
      const res = await api.request('PUT', `${authoring}/lessons/${lesson}`, { as: 'teacher', body });
      expect([res.statusCode, res.json().details.fields]).toEqual([422, fields]);
    };
    await refuse(
      { minutes: 3, title: texts(' '), body: texts('') },
      { 'title.de': 'required', 'body.de': 'required' },
    );
    await refuse(
      { minutes: 3, title: texts('Titel', { it: 'Titolo' }), body: texts('Text') },
      { 'body.it': 'required' },
    );
    const long = await api.request('PUT', `${authoring}/lessons/${lesson}`, {
      as: 'teacher',
      body: { minutes: 3, title: texts('x'.repeat(121)), body: texts('Text') },
    });
    expect(long.statusCode).toBe(422);
    const unchanged = await api.request('GET', `${authoring}/lessons/${lesson}`, { as: 'teacher' });
    expect(unchanged.json<{ data: AuthoredLesson }>().data.state).toBe('published');

    // The preview is the lesson page's renderer: nothing unsafe passes.
    const preview = await api.request('POST', `${authoring}/preview`, {
      as: 'teacher',
      body: { markdown: '**fett** <script>alert(1)</script><img src=x onerror=alert(1)>' },
    });
    expect(preview.json<{ data: { html: string } }>().data.html.trim()).toBe('<p><strong>fett</strong> </p>');

    // A course offered to PROFESSIONAL reaches Muster AG, not Beispiel GmbH (on STANDARD).
    const offer = { title: texts('Für Profis'), audience: 'plans', audiencePlans: ['NOPE'] };
    const unknown = await api.request('POST', `${authoring}/courses`, { as: 'teacher', body: offer });
    expect(unknown.json().details.fields).toEqual({ audiencePlans: 'courseUnknownPlan' });
    const made = await api.request('POST', `${authoring}/courses`, {
      as: 'teacher',
      body: { ...offer, audiencePlans: ['PROFESSIONAL'] },
    });
    const pro = made.json<{ data: AuthoredCourse }>().data;
    const only = await api.request('POST', `${authoring}/courses/${pro.uuid}/lessons`, {
      as: 'teacher',
      body: { minutes: 1, title: texts('Profi-Lektion'), body: texts('Nur für Profis') },
    });
    const proLesson = only.json<{ data: AuthoredLesson }>().data.uuid;
    await api.request('POST', `${authoring}/lessons/${proLesson}/publication`, { as: 'teacher' });
    expect((await course(api, 'employee')).lessons.at(-1)!.uuid).toBe(proLesson);
    expect((await course(api, 'inhaber', BEISPIEL)).lessons.some((l) => l.uuid === proLesson)).toBe(false);
  });

  it('keeps images from the file store by their content for readers of the lesson only, and shows no other', async () => {
    const lesson = DEMO_LESSON_UUIDS[2]!;
    const upload = (as: DemoLogin, fileName: string, content: Buffer, to = lesson) =>
      api.request('POST', `${authoring}/lessons/${to}/images`, {
        as,
        body: { fileName, content: content.toString('base64') },
      });
    const refused = async (fileName: string, content: Buffer, problem: string) => {
      const res = await upload('teacher', fileName, content);
      expect([res.statusCode, res.json().details.fields]).toEqual([422, { file: problem }]);
    };
    // The type comes from the content: HTML or a PDF named .png is refused, and so is a file over 2 MB.
    await refused('bild.png', Buffer.from('<html><script>alert(1)</script></html>'), 'lessonImageType');
    await refused('bild.png', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'lessonImageType');
    const big = Buffer.alloc(LESSON_IMAGE_MAX_BYTES + 1);
    PIXEL.copy(big);
    await refused('gross.png', big, 'lessonImageTooLarge');
    expect((await upload('owner', 'bild.png', PIXEL)).statusCode).toBe(403);
    const count = await api.db.query(`select 1 from files where purpose = 'lesson-image'`);
    expect(count.rows).toHaveLength(0);

    // PNG and GIF pass, named by their content; the answer is the Markdown the editor inserts.
    const png = await upload('teacher', 'Ablauf.gif', PIXEL);
    expect(png.statusCode).toBe(201);
    const image = png.json<{ data: LessonImage }>().data;
    expect(image).toMatchObject({ lessonUuid: lesson, fileName: 'Ablauf.png', contentType: 'image/png' });
    expect(image.markdown).toBe(`![Ablauf](/api/lesson-authoring/v1/images/${image.uuid})`);
    const gif = await upload(
      'teacher',
      'punkt.gif',
      Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
    );
    expect(gif.json<{ data: LessonImage }>().data.contentType).toBe('image/gif');
    const other = (await upload('teacher', 'andere.png', PIXEL, DEMO_LESSON_UUIDS[3]!)).json<{
      data: LessonImage;
    }>().data;

    // The sanitiser keeps only images from the lesson images' address, without the address itself.
    const markdown = [
      image.markdown,
      '![fremd](https://example.com/x.png)',
      `<img src="${LESSON_IMAGE_PATH}${image.uuid}/../x" onerror="alert(1)">`,
      `<img src="https://evil.example${LESSON_IMAGE_PATH}${image.uuid}">`,
      '![daten](data:image/png;base64,iVBORw0KGgo=)',
    ].join('\n\n');
    const preview = await api.request('POST', `${authoring}/preview`, { as: 'teacher', body: { markdown } });
    const html = preview.json<{ data: { html: string } }>().data.html;
    expect(html.match(/<img[^>]*>/g)).toEqual([`<img alt="Ablauf" data-lesson-image="${image.uuid}">`]);
    expect(html).not.toContain('src=');

    // Teachers load it for the preview; customers may not.
    const forTeacher = await api.request('GET', `${authoring}/images/${image.uuid}`, { as: 'teacher' });
    expect([forTeacher.statusCode, forTeacher.headers['content-type']]).toEqual([200, 'image/png']);
    expect(Buffer.from(forTeacher.rawPayload).equals(PIXEL)).toBe(true);
    expect((await api.request('GET', `${authoring}/images/${image.uuid}`, { as: 'owner' })).statusCode).toBe(
      403,
    );

    // Published, every reader of the lesson in the account loads it; nobody outside the account, and only under
    // its own lesson.
    await api.request('PUT', `${authoring}/lessons/${lesson}`, {
      as: 'teacher',
      body: { minutes: 4, title: texts('Mit Bild'), body: texts(`Schau:\n\n${image.markdown}`) },
    });
    await api.request('POST', `${authoring}/lessons/${lesson}/publication`, { as: 'teacher' });
    const read = await api.request('GET', `${base(MUSTER)}/lessons/${lesson}`, { as: 'employee' });
    expect(read.json<{ data: LessonDetail }>().data.html).toContain(`data-lesson-image="${image.uuid}"`);
    const learnerImage = (as: DemoLogin, account: string, imageUuid: string, of = lesson) =>
      api.request('GET', `${base(account)}/lessons/${of}/images/${imageUuid}`, { as });
    expect((await learnerImage('employee', MUSTER, image.uuid)).statusCode).toBe(200);
    expect((await learnerImage('newowner', MUSTER, image.uuid)).statusCode).toBe(404);
    expect((await learnerImage('employee', MUSTER, other.uuid)).statusCode).toBe(404);
    expect((await learnerImage('employee', MUSTER, other.uuid, DEMO_LESSON_UUIDS[3]!)).statusCode).toBe(200);
    // A lesson of a course not offered to the account: its image stays out of reach.
    const pro = (
      await api.request('POST', `${authoring}/courses`, {
        as: 'teacher',
        body: { title: texts('Nur Profis'), audience: 'plans', audiencePlans: ['PROFESSIONAL'] },
      })
    ).json<{ data: AuthoredCourse }>().data;
    const proLesson = (
      await api.request('POST', `${authoring}/courses/${pro.uuid}/lessons`, {
        as: 'teacher',
        body: { minutes: 1, title: texts('Profi-Bild'), body: texts('Bild') },
      })
    ).json<{ data: AuthoredLesson }>().data.uuid;
    await api.request('POST', `${authoring}/lessons/${proLesson}/publication`, { as: 'teacher' });
    const proImage = (await upload('teacher', 'profi.png', PIXEL, proLesson)).json<{ data: LessonImage }>()
      .data;
    expect((await learnerImage('employee', MUSTER, proImage.uuid, proLesson)).statusCode).toBe(200);
    expect((await learnerImage('inhaber', BEISPIEL, proImage.uuid, proLesson)).statusCode).toBe(404);
  });

  it('unpublishes a lesson or a course keeping progress, and deletes them with their progress and images', async () => {
    const lesson = DEMO_LESSON_UUIDS[4]!;
    await complete(api, 'employee', lesson);
    const learnerSees = async (uuid: string) =>
      (await course(api, 'employee')).lessons.some((l) => l.uuid === uuid);
    expect(await learnerSees(lesson)).toBe(true);

    // Taken back: learners no longer see it, not even by its address; the progress stays and counts again later.
    expect(
      (await api.request('DELETE', `${authoring}/lessons/${lesson}/publication`, { as: 'owner' })).statusCode,
    ).toBe(403);
    const taken = await api.request('DELETE', `${authoring}/lessons/${lesson}/publication`, {
      as: 'teacher',
    });
    expect(taken.json<{ data: AuthoredLesson }>().data).toMatchObject({ state: 'unpublished', version: 1 });
    expect(await learnerSees(lesson)).toBe(false);
    expect(
      (await api.request('GET', `${base(MUSTER)}/lessons/${lesson}`, { as: 'employee' })).statusCode,
    ).toBe(404);
    expect((await complete(api, 'employee', lesson, false)).statusCode).toBe(404);
    const again = await api.request('POST', `${authoring}/lessons/${lesson}/publication`, { as: 'teacher' });
    expect(again.json<{ data: AuthoredLesson }>().data).toMatchObject({ state: 'published', version: 1 });
    expect(
      (await course(api, 'employee')).lessons.find((l) => l.uuid === lesson)!.completedAt,
    ).not.toBeNull();

    // A course taken back hides all its lessons; published again, they are back with their progress.
    const hidden = await api.request('DELETE', `${authoring}/courses/${DEMO_COURSE.uuid}/publication`, {
      as: 'teacher',
    });
    expect(hidden.json<{ data: AuthoredCourse }>().data.published).toBe(false);
    const during = await course(api, 'employee');
    expect(during.lessons.some((l) => DEMO_LESSON_UUIDS.includes(l.uuid))).toBe(false);
    await api.request('POST', `${authoring}/courses/${DEMO_COURSE.uuid}/publication`, { as: 'teacher' });
    expect(
      (await course(api, 'employee')).lessons.find((l) => l.uuid === lesson)!.completedAt,
    ).not.toBeNull();

    // Deleted: the lesson goes with its images' files and everyone's progress in it, and the demo seed does not
    // bring it back.
    const image = (
      await api.request('POST', `${authoring}/lessons/${lesson}/images`, {
        as: 'teacher',
        body: { fileName: 'weg.png', content: PIXEL.toString('base64') },
      })
    ).json<{ data: LessonImage }>().data;
    expect((await api.request('DELETE', `${authoring}/lessons/${lesson}`, { as: 'owner' })).statusCode).toBe(
      403,
    );
    const deleted = await api.request('DELETE', `${authoring}/lessons/${lesson}`, { as: 'teacher' });
    expect(deleted.statusCode).toBe(204);
    expect((await api.request('GET', `${authoring}/lessons/${lesson}`, { as: 'teacher' })).statusCode).toBe(
      404,
    );
    const left = await api.db.query(
      'select 1 from lesson_progress where lesson_uuid = $1 union all select 1 from files where uuid = $2',
      [lesson, image.uuid],
    );
    expect(left.rows).toHaveLength(0);
    await api.db.transaction((tx) => seedDemoLessons(tx, DEMO_USERS.owner.id, MUSTER));
    expect(await learnerSees(lesson)).toBe(false);

    // A whole course goes with its lessons.
    const made = (
      await api.request('POST', `${authoring}/courses`, {
        as: 'teacher',
        body: { title: texts('Kurz'), audience: 'all', audiencePlans: [] },
      })
    ).json<{ data: AuthoredCourse }>().data;
    const inside = (
      await api.request('POST', `${authoring}/courses/${made.uuid}/lessons`, {
        as: 'teacher',
        body: { minutes: 1, title: texts('Drin'), body: texts('Text') },
      })
    ).json<{ data: AuthoredLesson }>().data.uuid;
    await api.request('POST', `${authoring}/lessons/${inside}/publication`, { as: 'teacher' });
    await open(api, 'employee', inside);
    expect(
      (await api.request('DELETE', `${authoring}/courses/${made.uuid}`, { as: 'teacher' })).statusCode,
    ).toBe(204);
    const gone = await api.db.query(
      'select 1 from lessons where uuid = $1 union all select 1 from lesson_progress where lesson_uuid = $1',
      [inside],
    );
    expect(gone.rows).toHaveLength(0);
    expect(
      (await api.request('DELETE', `${authoring}/courses/${made.uuid}`, { as: 'teacher' })).statusCode,
    ).toBe(404);
  });
});
