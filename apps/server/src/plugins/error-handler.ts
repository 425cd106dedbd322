import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@portal/contract';
import { HttpError } from '../http/errors.ts';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/address/city` → `address.city`; a missing or unknown property names itself. */
function fieldOf(issue: ValidationIssue): string {
  const base = issue.instancePath.replace(/^\//, '').split('/').join('.');
  const child =
    issue.keyword === 'required'
      ? issue.params.missingProperty
      : issue.keyword === 'additionalProperties'
        ? issue.params.additionalProperty
        : undefined;
  if (typeof child === 'string') return base ? `${base}.${child}` : child;
  return base || '_';
}

/** One message per field; a union of literals (`language`) reads "must be one of: de, en, fr, it". */
export function fieldErrors(issues: ValidationIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const allowed = new Map<string, unknown[]>();
  for (const issue of issues) {
    const field = fieldOf(issue);
    if (issue.keyword === 'const') {
      allowed.set(field, [...(allowed.get(field) ?? []), issue.params.allowedValue]);
      continue;
    }
    if (issue.keyword === 'anyOf' && allowed.has(field)) continue;
    if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
      fields[field] ??= `must be one of: ${issue.params.allowedValues.join(', ')}`;
      continue;
    }
    if (issue.keyword === 'additionalProperties') fields[field] ??= 'is not a known field';
    else fields[field] ??= issue.message ?? 'is not valid';
  }
  for (const [field, values] of allowed) fields[field] = `must be one of: ${values.join(', ')}`;
  return fields;
}

/** Connection-level database failures (not query errors): network codes and PostgreSQL classes 08 and 57P. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|08\w{3}|57P0[1-3])$/.test(code)
  ) {
    return true;
  }
  return (
    error instanceof Error &&
    /timeout exceeded when trying to connect|Connection terminated/i.test(error.message)
  );
}

function send(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** One error shape for the whole API; bad input never becomes a 500, and a 500 hides its cause. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return send(reply, error.statusCode, {
        message: error.message,
        code: error.code,
        ...(error.fields ? { details: { fields: error.fields } } : {}),
      });
    }
    if (error.validation) {
      // An id in the path that cannot exist names no resource: 404, as for any unknown one.
      if (error.validationContext === 'params')
        return send(reply, 404, { message: 'Not found', code: 'NOT_FOUND' });
      const fields = fieldErrors(error.validation as ValidationIssue[]);
      return send(reply, 422, {
        message: `Invalid ${error.validationContext ?? 'input'}: ${Object.entries(fields)
          .map(([field, message]) => `${field} ${message}`)
          .join('; ')}`,
        code: 'VALIDATION_FAILED',
        details: { fields },
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'MALFORMED_JSON'
          : (error.code ?? 'BAD_REQUEST');
      return send(reply, status, { message: error.message, code });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return send(reply, 503, {
        message: 'The service is temporarily unavailable; try again shortly',
        code: 'UNAVAILABLE',
      });
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, { message: 'Internal server error', code: 'INTERNAL' });
  });
}

/** 404 for an unknown API route, as JSON. */
export function apiNotFound(reply: FastifyReply) {
  return send(reply, 404, { message: 'No such API route', code: 'NOT_FOUND' });
}
