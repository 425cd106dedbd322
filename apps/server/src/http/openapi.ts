import type { FastifySchema } from 'fastify';
import Type from 'typebox';
import { isUnsafeMethod } from '@portal/contract';

/** The API's description in OpenAPI: how to call it outside the web app, /api/docs included. */
export const API_DESCRIPTION = `Every request needs \`Authorization: Bearer <access token>\` unless the route says otherwise.
Unsafe methods (POST, PUT, PATCH, DELETE) also need the header \`X-XSRF-TOKEN\` with the value of the
\`XSRF-TOKEN\` cookie the server sets on any response (double submit); "Try it out" on /api/docs copies it by itself.
Creating POSTs accept \`Idempotency-Key\` (1–255 visible ASCII characters): a retry with the same key and body gets
the first answer again. Errors answer \`{message, code, details?}\`; refused fields are in \`details.fields\`.`;

/**
 * The API's security schemes: the user's access token, and the device token the AbaClik app gets when it pairs
 * (app routes name it with `security`).
 */
export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  abaclikDevice: {
    type: 'http',
    scheme: 'bearer',
    description: 'The device token the AbaClik app received when it exchanged its activation code',
  },
} as const;

const XsrfHeader = Type.String({
  description: 'The value of the XSRF-TOKEN cookie (double submit); required on unsafe methods',
});
const IdempotencyKey = Type.String({
  pattern: '^[\\x21-\\x7e]{1,255}$',
  description: 'Any unique value per intended creation; a retry with the same key gets the first answer',
});

/**
 * A route's schema as OpenAPI shows it: the headers the edge checks before the route's own schema (X-XSRF-TOKEN on
 * unsafe methods, Idempotency-Key where the route honours it). Documentation only; the checks live in their plugins.
 */
export function documentedSchema(
  schema: FastifySchema | undefined,
  route: { method: string | string[]; config?: unknown },
): FastifySchema | undefined {
  if (!schema) return schema;
  const methods = [route.method].flat();
  const headers: Record<string, Type.TSchema> = {};
  const config = route.config as { idempotent?: boolean; appRoute?: boolean } | undefined;
  if (methods.some(isUnsafeMethod) && !config?.appRoute) {
    headers['x-xsrf-token'] = XsrfHeader;
  }
  if (config?.idempotent) {
    headers['idempotency-key'] = Type.Optional(IdempotencyKey);
  }
  if (!Object.keys(headers).length) return schema;
  return { ...schema, headers: Type.Object(headers) };
}

/**
 * swagger-ui's request hook for /api/docs: copies the XSRF-TOKEN cookie into X-XSRF-TOKEN. @fastify/swagger-ui writes
 * this function's source into its initializer script (a file, so the CSP needs no inline script); it must not use
 * anything outside itself.
 */
export function copyXsrfCookie(request: { headers: Record<string, string> }) {
  const cookies = (globalThis as unknown as { document: { cookie: string } }).document.cookie;
  const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(cookies);
  if (match) request.headers['X-XSRF-TOKEN'] = decodeURIComponent(match[1]!);
  return request;
}
