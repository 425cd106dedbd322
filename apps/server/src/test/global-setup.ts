// Vitest's global setup of the server tests: the test database snapshot, and its PostgreSQL template when
// TEST_DATABASE_URL is set, made once before the workers start. Without it, on a fresh machine, each worker made its
// own at the same time (migrating and seeding on PGlite is about 16 s of CPU) and its first suites waited for it.
import { pgliteSnapshot, postgresTemplate } from './snapshot.ts';

export default async function makeTestDatabases(): Promise<void> {
  await Promise.all([pgliteSnapshot(), process.env.TEST_DATABASE_URL ? postgresTemplate() : undefined]);
}
