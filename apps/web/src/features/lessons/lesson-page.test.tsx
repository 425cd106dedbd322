import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  accountsRoutes,
  lessonsRoutes,
  usersRoutes,
  type AccountRole,
  type LessonCourse,
  type LessonDetail,
  type LessonSummary,
} from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import LessonPage from './lesson-page.tsx';

mockApi();

const ACCOUNT = '6f1c2b1e-0002-4000-8000-000000000001';
const uuid = (n: number) => `6f1c2b1e-0009-4000-8000-00000000000${n}`;

function summary(n: number, completedAt: string | null = null): LessonSummary {
  return {
    uuid: uuid(n),
    number: n,
    title: `Lektion Nummer ${n}`,
    minutes: n + 2,
    language: 'de',
    openedAt: completedAt,
    completedAt,
  };
}

function course(done: number[], resume: number | null): LessonCourse {
  const lessons = [1, 2, 3].map((n) => summary(n, done.includes(n) ? '2026-11-20T10:00:00Z' : null));
  return {
    accountName: 'Muster AG',
    lessons,
    completed: done.length,
    total: 3,
    minutesLeft: lessons.filter((l) => !l.completedAt).reduce((sum, l) => sum + l.minutes, 0),
    resumeLessonUuid: resume ? uuid(resume) : null,
  };
}

function detail(n: number): LessonDetail {
  return {
    ...summary(n),
    html: `<h3>Inhalt ${n}</h3><p>Text der Lektion ${n}</p>`,
    previousUuid: n > 1 ? uuid(n - 1) : null,
    nextUuid: n < 3 ? uuid(n + 1) : null,
  };
}

/** The API as the server answers: `state` is the course; changes update it. The reader has `role` in the account. */
function serve(state: { course: LessonCourse }, role: AccountRole = 'EMPLOYEE') {
  apiRequest.mockImplementation((route: unknown, input: { params?: { lessonUuid: string } }) => {
    // The reader's own accounts do not hold this one (as for staff), so it is read by itself.
    if (route === usersRoutes.listMyAccounts) return Promise.resolve({ data: [] });
    if (route === accountsRoutes.getAccount) {
      return Promise.resolve({ data: testAccount(ACCOUNT, { name: 'Muster AG', accountRole: role }) });
    }
    const n = Number(input.params?.lessonUuid.slice(-1));
    if (route === lessonsRoutes.getLessonCourse) return Promise.resolve({ data: state.course });
    if (route === lessonsRoutes.getLesson) return Promise.resolve({ data: detail(n) });
    if (route === lessonsRoutes.markLessonOpened) return Promise.resolve({ data: state.course });
    if (route === lessonsRoutes.setLessonCompletion) {
      state.course = course([1, n], n + 1);
      return Promise.resolve({ data: state.course });
    }
    return Promise.reject(new Error('unexpected'));
  });
}

const render = (at = `/ncr/lesson/${ACCOUNT}`) =>
  renderPage('/ncr/lesson/:accountUuid', <LessonPage />, { at });

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

describe('lesson page', () => {
  it('shows the outline with progress and resumes at the lesson the reader left', async () => {
    serve({ course: course([1], 2) });
    await render();
    expect(await screen.findByRole('heading', { level: 2, name: 'Lektion Nummer 2' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 3, name: 'Inhalt 2' })).toBeTruthy();
    const outline = screen.getByRole('navigation', { name: 'Kursübersicht' });
    expect(within(outline).getByText('1 von 3 Lektionen erledigt')).toBeTruthy();
    expect(within(outline).getByText('Noch etwa 9 Minuten')).toBeTruthy();
    expect(within(outline).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('33');
    const current = within(outline).getByRole('link', { name: /Lektion Nummer 2/ });
    expect(current.getAttribute('aria-current')).toBe('step');
    expect(within(outline).getByRole('link', { name: /Lektion Nummer 1/ }).textContent).toContain('Erledigt');
    // Going on without completing is possible too.
    expect(screen.getByRole('link', { name: 'Nächste Lektion' }).getAttribute('href')).toBe(
      `/ncr/lesson/${ACCOUNT}?lesson=${uuid(3)}`,
    );
    // Every request names the account of the address, in the reader's language; reading it records the resume point.
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(lessonsRoutes.markLessonOpened, {
        accountUuid: ACCOUNT,
        params: { lessonUuid: uuid(2) },
        query: { lang: 'de' },
      }),
    );
  });

  it('marks complete and continues to the next lesson, moving the focus to its title', async () => {
    const user = userEvent.setup();
    serve({ course: course([1], 2) });
    const { router } = await render();
    await user.click(await screen.findByRole('button', { name: 'Als erledigt markieren und weiter' }));
    const next = await screen.findByRole('heading', { level: 2, name: 'Lektion Nummer 3' });
    expect(router.state.location.search).toBe(`?lesson=${uuid(3)}`);
    expect(apiRequest).toHaveBeenCalledWith(lessonsRoutes.setLessonCompletion, {
      accountUuid: ACCOUNT,
      params: { lessonUuid: uuid(2) },
      query: { lang: 'de' },
      body: { completed: true },
    });
    await waitFor(() => expect(document.activeElement).toBe(next));
    expect(shownToasts('success')).toEqual(['Die Lektion ist als erledigt markiert.']);
    expect(screen.getByText('2 von 3 Lektionen erledigt')).toBeTruthy();
    // The last lesson offers no "continue", and a completed one can be marked not complete.
    expect(screen.getByRole('button', { name: 'Als erledigt markieren' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Vorherige Lektion' }));
    expect(await screen.findByRole('button', { name: 'Als nicht erledigt markieren' })).toBeTruthy();
  });

  it('lets staff in a customer account read the lessons without keeping progress there', async () => {
    serve({ course: course([1], 2) }, 'SUPPORT');
    await render();
    expect(await screen.findByRole('heading', { level: 3, name: 'Inhalt 2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Nächste Lektion' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Als erledigt markieren und weiter' })).toBeNull();
    expect(apiRequest).not.toHaveBeenCalledWith(lessonsRoutes.markLessonOpened, expect.anything());
  });

  it("says so when the account is not the reader's (404), without any lesson", async () => {
    apiRequest.mockRejectedValue(new ApiError(404, 'Not found', 'NOT_FOUND'));
    await render();
    expect(await screen.findByText('Keine Lektionen gefunden')).toBeTruthy();
    expect(screen.getByText('Dieses Konto gibt es nicht, oder Sie haben keinen Zugang dazu.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Kursübersicht' })).toBeNull();
  });
});
