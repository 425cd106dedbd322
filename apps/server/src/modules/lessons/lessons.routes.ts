import type { ModuleDeps } from '../../http/route.ts';

/** The lessons area's routes; filled by the lessons area. */
export function registerLessonsRoutes(_deps: ModuleDeps) {}
