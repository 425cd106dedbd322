import type { FastifyReply } from 'fastify';

/** An error with an HTTP status and a stable code; the error handler turns it into the one error shape. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const forbidden = (message = 'Your role does not allow this') =>
  new HttpError(403, 'FORBIDDEN', message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new HttpError(409, 'CONFLICT', message, fields);
/** 422 for one field the schema cannot judge, e.g. `invalidField('name', 'is required')`. */
export const invalidField = (field: string, problem: string) =>
  new HttpError(422, 'VALIDATION_FAILED', `${field} ${problem}`, { [field]: problem });
/**
 * 403 for a person whose address is not verified where a verified one is needed: a seat or an ownership goes only
 * to a proved address (decision 193). The web explains the code and offers the verification mail.
 */
export const emailNotVerified = (message = 'Verify your email address first') =>
  new HttpError(403, 'EMAIL_NOT_VERIFIED', message);

/** The plain 404 of a path outside the API and the web app, for every Accept (never the web app's page). */
export function plainNotFound(reply: FastifyReply) {
  return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
}
