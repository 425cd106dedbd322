// Lessons: an account's course and each person's progress (ncr/lesson/{accountUuid}). Filled by the lessons area.

export const lessonsRoutes = {};
