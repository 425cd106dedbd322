/** A timestamp from the database (a Date from pg, a string from PGlite) as the API's ISO 8601 date-time. */
export const iso = (value: Date | string) => new Date(value).toISOString();
