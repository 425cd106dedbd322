/** Field errors of a 422 answer (`ApiError.fields`), keyed the way the form names its fields. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (typeof error !== 'object' || error === null || !('fields' in error)) return {};
  const fields = (error as { fields?: unknown }).fields;
  if (typeof fields !== 'object' || fields === null) return {};
  const result: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    if (typeof message !== 'string') continue;
    // JSON pointers ("/address/street") and dotted paths ("address.street") both name form field "address.street".
    const name = path.replace(/^\/+/, '').replace(/\//g, '.');
    if (name) result[name] = message;
  }
  return result;
}

/** Counts the leaf errors of react-hook-form's nested error object. */
export function countErrors(errors: unknown): number {
  if (typeof errors !== 'object' || errors === null) return 0;
  if ('type' in errors && typeof (errors as { type: unknown }).type === 'string') return 1;
  return Object.entries(errors).reduce(
    (sum, [key, value]) => (key === 'ref' ? sum : sum + countErrors(value)),
    0,
  );
}
