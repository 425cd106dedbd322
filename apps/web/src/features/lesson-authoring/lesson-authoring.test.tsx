import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { usersRoutes } from '@portal/contract';
import {
  lessonAuthoringRoutes as routes,
  type AuthoredCourse,
  type AuthoredLesson,
  type AuthoredLessonSummary,
} from '@portal/contract/lesson-authoring';
import { ApiError } from '@/api/errors.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { queryKeys } from '@/api/session.ts';
import { testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import CoursesPage from './courses-page.tsx';
import LessonEditorPage from './lesson-editor-page.tsx';

mockApi();

const COURSE_UUID = 'c0000000-0000-4000-8000-000000000001';
const LESSON_UUID = 'a0000000-0000-4000-8000-000000000001';
const texts = (de: string, it = '') => ({ de, en: '', fr: '', it });

const SUMMARY: AuthoredLessonSummary = {
  uuid: LESSON_UUID,
  title: 'Konten und Mitglieder',
  titles: texts('Konten und Mitglieder', 'Account e membri'),
  minutes: 5,
  state: 'changed',
  version: 2,
  publishedAt: '2026-11-20T09:00:00.000Z',
};
const LESSON: AuthoredLesson = {
  ...SUMMARY,
  courseUuid: COURSE_UUID,
  title: SUMMARY.titles,
  body: texts('Ein **Text**.', 'Un **testo**.'),
};

const COURSE: AuthoredCourse = {
  uuid: COURSE_UUID,
  title: texts('Einführung ins Portal', 'Primi passi'),
  audience: 'plans',
  audiencePlans: ['PROFESSIONAL'],
  published: true,
  lessons: [
    SUMMARY,
    {
      uuid: 'a0000000-0000-4000-8000-000000000002',
      title: 'Nur Deutsch',
      titles: texts('Nur Deutsch'),
      minutes: 3,
      state: 'unpublished',
      version: 1,
      publishedAt: '2026-11-21T09:00:00.000Z',
    },
  ],
};

function setup(answer: (route: unknown, input: { body?: unknown; params?: object }) => unknown) {
  const me = testUser({ userRole: 'TEACHER' });
  apiRequest.mockImplementation(async (route, input) =>
    route === usersRoutes.getMe ? { data: me } : answer(route, input),
  );
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  queryClient.setQueryData(queryKeys.me, me);
  return queryClient;
}

const page = (child: ReactElement) => (
  <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
    <ConfirmProvider>{child}</ConfirmProvider>
  </PortalThemeProvider>
);

describe('lesson authoring pages', { timeout: 60_000 }, () => {
  it('lists courses and lessons in the interface language, German where a title lacks it, with state and menus', async () => {
    const queryClient = setup(() => ({ data: [COURSE], meta: { total: 1, page: 1, pageSize: 1 } }));
    await renderPage('/provider/lessons', page(<CoursesPage />), { queryClient, lng: 'it' });
    const course = await screen.findByRole('region', { name: 'Primi passi' }, { timeout: 10_000 });
    const list = within(course).getByRole('list', { name: 'Lezioni di «Primi passi»' });
    const items = within(list).getAllByRole('listitem');
    expect(within(items[0]!).getByRole('link', { name: 'Account e membri' })).toBeTruthy();
    // No Italian title: the German one.
    expect(within(items[1]!).getByRole('link', { name: 'Nur Deutsch' })).toBeTruthy();
    expect(within(items[1]!).getByText('Ritirata')).toBeTruthy();
    // The lesson's menu offers what its state allows, and deleting asks first, naming it.
    const user = userEvent.setup();
    await user.click(within(items[1]!).getByRole('button', { name: 'Azioni per «Nur Deutsch»' }));
    expect(screen.getByRole('menuitem', { name: 'Pubblica di nuovo' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Elimina' }));
    expect(await screen.findByRole('dialog', { name: 'Eliminare la lezione «Nur Deutsch»?' })).toBeTruthy();
  });

  it('edits a lesson per language beside a preview that follows the text, and shows a server error at its field', async () => {
    const previews: string[] = [];
    const queryClient = setup((route, input) => {
      if (route === routes.getAuthoredLesson) return { data: LESSON };
      if (route === routes.previewLesson) {
        const { markdown } = input.body as { markdown: string };
        previews.push(markdown);
        return { data: { html: `<p>Vorschau: ${markdown.replace(/\*\*/g, '')}</p>` } };
      }
      if (route === routes.saveLessonDraft) {
        throw new ApiError(422, 'Invalid lesson', 'VALIDATION_FAILED', { 'title.it': 'required' });
      }
      return { data: LESSON };
    });
    await renderPage('/provider/lessons/:lessonUuid', page(<LessonEditorPage lessonUuid={LESSON_UUID} />), {
      at: `/provider/lessons/${LESSON_UUID}`,
      queryClient,
    });
    const user = userEvent.setup();
    const preview = await screen.findByRole('region', { name: 'Vorschau' }, { timeout: 10_000 });
    expect(await within(preview).findByText('Vorschau: Ein Text.')).toBeTruthy();

    // The Italian tab holds the Italian text; the preview follows the tab and the typing.
    await user.click(screen.getByRole('tab', { name: 'Italienisch' }));
    const italian = screen.getByRole('tabpanel', { name: 'Italienisch' });
    const body = within(italian).getByRole('textbox', { name: /^Text/ });
    expect((body as HTMLTextAreaElement).value).toBe('Un **testo**.');
    expect(await within(preview).findByText('Vorschau: Un testo.')).toBeTruthy();
    await user.type(body, ' Nuovo.');
    expect(
      await within(preview).findByText('Vorschau: Un testo. Nuovo.', {}, { timeout: 5_000 }),
    ).toBeTruthy();

    // The server refuses the Italian title: the error shows at that field, which gets the focus.
    await user.click(screen.getByRole('button', { name: 'Entwurf speichern' }));
    const panel = () => screen.getByRole('tabpanel', { name: 'Italienisch' });
    const title = () => within(panel()).getByRole('textbox', { name: /^Titel/ });
    await vi.waitFor(() => expect(title().getAttribute('aria-invalid')).toBe('true'));
    expect(within(panel()).getByText('Dieses Feld ist erforderlich')).toBeTruthy();
    await vi.waitFor(() => expect(document.activeElement).toBe(title()));
  });
});
