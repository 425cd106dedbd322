/** Hands a downloaded file to the browser to save under `fileName` (the API's files need the session's token). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the object URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
