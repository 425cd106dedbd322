import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { HttpError } from '../http/errors.ts';

const HEADER = 'idempotency-key';
/** A retry comes within minutes; keys older than this are forgotten. */
const KEEP_HOURS = 24;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

/**
 * Idempotency-Key for creating POSTs (routes with config.idempotent): the first request claims the key in the
 * database (shared by all instances) and stores its answer; a retry with the same key and body gets that answer
 * again (header Idempotent-Replayed: true), never a second resource. A different body with the key is refused.
 */
export function registerIdempotency(app: FastifyInstance, db: Db) {
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers[HEADER];
    if (!request.routeOptions.config.idempotent || typeof key !== 'string' || !request.user) return;
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw new HttpError(
        422,
        'VALIDATION_FAILED',
        'Idempotency-Key must be 1–255 visible ASCII characters',
        {
          'Idempotency-Key': 'is not valid',
        },
      );
    }
    const route = `${request.method} ${request.routeOptions.url}`;
    const hash = crypto
      .createHash('sha256')
      .update(`${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const userUuid = request.user.uuid;
    await db.query(
      `delete from idempotency_keys where user_uuid = $1 and created_at < now() - make_interval(hours => $2)`,
      [userUuid, KEEP_HOURS],
    );
    const claimed = await db.query(
      `insert into idempotency_keys (user_uuid, key, route, request_hash, status, body)
       values ($1, $2, $3, $4, 0, 'null'::jsonb) on conflict do nothing returning key`,
      [userUuid, key, route, hash],
    );
    if (claimed.rows.length) {
      request.idempotencyKey = key;
      return;
    }
    const { rows } = await db.query<{ route: string; request_hash: string; status: number; body: unknown }>(
      'select route, request_hash, status, body from idempotency_keys where user_uuid = $1 and key = $2',
      [userUuid, key],
    );
    const stored = rows[0];
    if (!stored) throw new HttpError(409, 'IDEMPOTENCY_RETRY', 'Retry the request');
    if (stored.route !== route || stored.request_hash !== hash) {
      throw new HttpError(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for a different request',
      );
    }
    if (stored.status === 0) {
      throw new HttpError(
        409,
        'IDEMPOTENCY_IN_PROGRESS',
        'The first request with this Idempotency-Key is still running',
      );
    }
    reply.header('Idempotent-Replayed', 'true');
    return reply.code(stored.status).send(stored.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key || !request.user) return payload;
    request.idempotencyKey = undefined;
    if (reply.statusCode >= 500) {
      // Nothing happened that a retry must not repeat: release the key.
      await db.query('delete from idempotency_keys where user_uuid = $1 and key = $2', [
        request.user.uuid,
        key,
      ]);
    } else {
      await db.query(
        'update idempotency_keys set status = $3, body = $4::jsonb where user_uuid = $1 and key = $2',
        [request.user.uuid, key, reply.statusCode, typeof payload === 'string' && payload ? payload : 'null'],
      );
    }
    return payload;
  });
}
