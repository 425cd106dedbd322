import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { defineRoute } from '@portal/contract';
import { apiFile } from './client.ts';
import { useDownload } from './use-download.ts';

const saveFile = vi.fn();
vi.mock('./save-file.ts', () => ({ saveFile: (...args: unknown[]) => saveFile(...args) }));

const fileRoute = defineRoute({
  method: 'GET',
  path: '/files/v1/{name}',
  summary: 'a file',
  tags: ['test'],
  response: {},
});

function serve(disposition: string | null) {
  const fetchMock = vi.fn(
    async () =>
      new Response('a;b\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/csv',
          ...(disposition ? { 'Content-Disposition': disposition } : {}),
        },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

async function download(disposition: string | null, name?: (item: string) => string) {
  saveFile.mockReset();
  const fetchMock = serve(disposition);
  const { result } = renderHook(
    () => useDownload((item: string) => apiFile(fileRoute, { params: { name: item } }), name),
    { wrapper },
  );
  await act(() => result.current.mutateAsync('report'));
  await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
  return {
    fetchMock,
    blob: saveFile.mock.calls[0]![0] as Blob,
    fileName: saveFile.mock.calls[0]![1] as string,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('useDownload', () => {
  it('fetches through the one client and saves under the name the caller gives', async () => {
    const { fetchMock, blob, fileName } = await download(
      'attachment; filename="server.csv"',
      (item) => `${item}.csv`,
    );
    expect(fetchMock.mock.calls[0]).toEqual([
      '/api/files/v1/report',
      expect.objectContaining({ method: 'GET', credentials: 'same-origin' }),
    ]);
    expect(await blob.text()).toBe('a;b\n');
    expect(fileName).toBe('report.csv');
  });

  it('else under the name the server gives, its UTF-8 form first', async () => {
    expect((await download('attachment; filename="plain.csv"')).fileName).toBe('plain.csv');
    expect(
      (await download(`attachment; filename="Protokoll.csv"; filename*=UTF-8''Protokoll%20M%C3%A4rz.csv`))
        .fileName,
    ).toBe('Protokoll März.csv');
  });

  it('else as "download"', async () => {
    expect((await download(null)).fileName).toBe('download');
  });
});
