import { useMutation } from '@tanstack/react-query';
import type { ApiFile } from './client.ts';
import { saveFile } from './save-file.ts';

/**
 * The one way the web downloads a file (an invoice PDF, the log as CSV, a ticket's attachment): `fetchFile` gets
 * it through the one HTTP client (`apiFile`, with the session's token and the account in the address), then the
 * browser saves it under `fileName(item)`, else the name the server gives, else "download". A mutation: the
 * caller shows `isPending` on its button, and a failure is toasted by the query client like any other.
 */
export function useDownload<T>(fetchFile: (item: T) => Promise<ApiFile>, fileName?: (item: T) => string) {
  return useMutation({
    mutationFn: async (item: T) => {
      const file = await fetchFile(item);
      saveFile(file.blob, fileName?.(item) ?? file.fileName ?? 'download');
    },
  });
}
