// Images the API serves behind the sign-in (a lesson's) reach an <img> as data: URLs: the browser would load an
// address without the caller's token, and the app's content policy shows images from itself and data: URLs only.

/** A Blob as a data: URL. */
export function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read'));
    reader.readAsDataURL(blob);
  });
}
