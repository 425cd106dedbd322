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
