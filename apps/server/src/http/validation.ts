import { invalidField } from './errors.ts';

/** A name people see (an account's or a user's): trimmed, required. The schema only sees the untrimmed length. */
export function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', 'is required');
  return trimmed;
}
