import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@portal/contract';
import { HttpError } from '../http/errors.ts';
import { reportServerError } from './error-reporting.ts';

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

/**
 * Headers that describe a streamed answer (the log's CSV: compressed, an attachment) and are set before its first
 * byte: when the stream fails before that byte, the error answer takes its place and must not carry them (a JSON
 * body labelled gzip, or saved as `log.csv`). Fastify has copied them to the raw response already.
 */
const STREAM_HEADERS = ['content-encoding', 'content-disposition', 'content-length'];

function send(reply: FastifyReply, status: number, body: ErrorBody) {
  for (const name of STREAM_HEADERS) {
    reply.removeHeader(name);
    if (!reply.raw.headersSent) reply.raw.removeHeader(name);
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The framework's own refusals in the project's terms: status, code and message per Fastify error code. A
 * framework code never reaches a client; a 4xx without an entry gets the status's code from STATUS_CODES.
 */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'MALFORMED_JSON',
    message: 'The body is empty; send JSON or leave out Content-Type',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: 'Body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Content-Length does not match the body',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'BAD_REQUEST', message: 'The URL is not valid' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', message: 'A path parameter is too long' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE', message: 'The body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the body as application/json',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the body as application/json',
  },
  // A path the static files refuse (too long, a dot file) names no file: not found, like any other.
  FST_STATIC_FORBIDDEN_PATH: { status: 404, code: 'NOT_FOUND', message: 'Not found' },
};

/** The project's code for a 4xx status without a more precise one. */
const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'BODY_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
};

/** `field message; field message` for the top-level message of a 4xx with field errors. */
const listFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([field, message]) => `${field} ${message}`)
    .join('; ');

/**
 * One error shape for the whole server, `{message, code, details?}` with the project's codes; bad input never
 * becomes a 500, and a 500 hides its cause. Only the 5xx are reported (SENTRY_DSN, decision 237), never a refusal.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return send(reply, error.statusCode, {
      message: error.message,
      code: error.code,
      ...(error.fields ? { details: { fields: error.fields } } : {}),
    });
  }
  if (error.validation) {
    const fields = fieldErrors(error.validation as ValidationIssue[]);
    // A path parameter names a resource: one that cannot be valid (not a uuid) is a malformed request.
    const [status, code] =
      error.validationContext === 'params' ? [400, 'BAD_REQUEST'] : [422, 'VALIDATION_FAILED'];
    return send(reply, status, {
      message: `Invalid ${error.validationContext ?? 'input'}: ${listFields(fields)}`,
      code,
      details: { fields },
    });
  }
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return send(reply, known.status, { message: known.message, code: known.code });
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = error instanceof SyntaxError ? 'MALFORMED_JSON' : (STATUS_CODES[status] ?? 'BAD_REQUEST');
    request.log.info({ err: error }, 'request refused');
    return send(reply, status, { message: error.message, code });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    reportServerError(error, request.user);
    return send(reply, 503, {
      message: 'The service is temporarily unavailable; try again shortly',
      code: 'UNAVAILABLE',
    });
  }
  request.log.error({ err: error }, 'request failed');
  reportServerError(error, request.user);
  return send(reply, 500, { message: 'Internal server error', code: 'INTERNAL' });
}

/** Errors of routes and hooks; the router's own (a URL it cannot decode) reach handleError through app.ts. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(handleError);
}

/** 404 for an unknown API route, as JSON. */
export function apiNotFound(reply: FastifyReply) {
  return send(reply, 404, { message: 'No such API route', code: 'NOT_FOUND' });
}
