// How the data exports (a person's, an account's; decisions 231 and 240) write their documents.

/** A time as ISO 8601 in UTC, or null. */
export const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A JSON document, indented for people, with a final newline. */
export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A file name safe in any unzip tool: no path separators or control characters, at most 100 characters. */
export const safeName = (name: string) =>
  name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f/\\:*?"<>|]/g, '_')
    .slice(0, 100) || 'file';
