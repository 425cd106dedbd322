import http from 'node:http';
import https from 'node:https';
import type { ShopProblem, ShopRecordKind } from '@portal/contract';
import { AddressRefused, checkedLookup, ipLiteralOf, isReachableAddress } from './peppershop-address.ts';

/** One record of the shop: its id there and what it answered about it. */
export interface ShopItem {
  id: string;
  data: Record<string, unknown>;
}

export interface ShopPage {
  items: ShopItem[];
  /** Where the next page starts; null after the last one. */
  nextCursor: string | null;
}

/**
 * How the portal talks to a shop. Every failure is a ShopError naming the problem, so a test and a sync report
 * the same localisable reasons whichever shop system stands behind the adapter.
 */
export interface ShopAdapter {
  /** Checks address and key; answers the shop's name. */
  test(): Promise<{ name: string }>;
  /** One page of records of a kind, from `cursor` (null: the first page). */
  fetchPage(kind: ShopRecordKind, cursor: string | null): Promise<ShopPage>;
}

export class ShopError extends Error {
  constructor(readonly problem: ShopProblem) {
    super(`shop: ${problem}`);
    this.name = 'ShopError';
  }
}

export interface HttpShopOptions {
  url: string;
  apiKey: string;
  /** The whole request, answer included, must finish within this. */
  timeoutMs: number;
  /** Demo mode: plain http and loopback addresses may be reached. */
  allowLocal: boolean;
}

/** Records asked for per page. */
export const SHOP_PAGE_SIZE = 100;
/** A larger answer is no shop's page: refused rather than held in memory. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
/** A record larger than this is kept as its id only. */
const MAX_RECORD_CHARS = 16 * 1024;
const MAX_ID_CHARS = 200;

const KIND_PATHS: Record<ShopRecordKind, string> = {
  PRODUCTS: 'products',
  ORDERS: 'orders',
  CUSTOMERS: 'customers',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The shop's REST API as the portal expects it, under the shop's address:
 * `GET /api/v1/shop` answers `{ "name": "…" }`; `GET /api/v1/{products|orders|customers}?limit=&cursor=` answers
 * `{ "items": [{ "id": …, … }], "nextCursor": "…" | null }`; every request carries `Authorization: Bearer <key>`.
 */
export function createHttpShopAdapter(options: HttpShopOptions): ShopAdapter {
  const base = new URL(options.url);
  const endpoint = (path: string, query: Record<string, string> = {}) => {
    const url = new URL(base.pathname.replace(/\/+$/, '') + path, base);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  };

  return {
    async test() {
      const answer = await getJson(endpoint('/api/v1/shop'), options);
      if (!isObject(answer) || typeof answer.name !== 'string' || answer.name.trim() === '') {
        throw new ShopError('NOT_A_SHOP');
      }
      return { name: answer.name.trim().slice(0, 200) };
    },

    async fetchPage(kind, cursor) {
      const query: Record<string, string> = { limit: String(SHOP_PAGE_SIZE) };
      if (cursor) query.cursor = cursor;
      const answer = await getJson(endpoint(`/api/v1/${KIND_PATHS[kind]}`, query), options);
      if (!isObject(answer) || !Array.isArray(answer.items)) throw new ShopError('NOT_A_SHOP');
      const next = answer.nextCursor ?? null;
      if (next !== null && (typeof next !== 'string' || next === '')) throw new ShopError('NOT_A_SHOP');
      const items = answer.items.map((item): ShopItem => {
        const id = isObject(item) ? item.id : undefined;
        if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length > MAX_ID_CHARS) {
          throw new ShopError('NOT_A_SHOP');
        }
        const data =
          JSON.stringify(item).length > MAX_RECORD_CHARS ? { id } : (item as Record<string, unknown>);
        return { id: String(id), data };
      });
      return { items, nextCursor: next };
    },
  };
}

/** A GET with the key, to the checked address only, within the time limit; the answer's JSON or a ShopError. */
function getJson(url: URL, options: HttpShopOptions): Promise<unknown> {
  const secure = url.protocol === 'https:';
  if (!secure && !(options.allowLocal && url.protocol === 'http:')) throw new ShopError('ADDRESS_REFUSED');
  const literal = ipLiteralOf(url);
  if (literal !== null && !isReachableAddress(literal, options.allowLocal))
    throw new ShopError('ADDRESS_REFUSED');

  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      if (error instanceof ShopError) return reject(error);
      if (signal.aborted) return reject(new ShopError('TIMEOUT'));
      if (error instanceof AddressRefused) return reject(new ShopError('ADDRESS_REFUSED'));
      reject(new ShopError('UNREACHABLE'));
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          'user-agent': 'Portal shop connection',
        },
        // Names are resolved and checked by the lookup; the socket connects to what it checked. A fresh
        // connection per request (no pooled socket from another check).
        lookup: checkedLookup(options.allowLocal),
        agent: false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status === 401 || status === 403) {
          response.resume();
          return fail(new ShopError('WRONG_KEY'));
        }
        const type = response.headers['content-type'] ?? '';
        if (status !== 200 || !/^application\/(.+\+)?json\b/i.test(type)) {
          response.resume();
          return fail(new ShopError('NOT_A_SHOP'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            response.destroy();
            fail(new ShopError('NOT_A_SHOP'));
          } else chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            fail(new ShopError('NOT_A_SHOP'));
          }
        });
      },
    );
    request.on('error', fail);
    request.end();
  });
}
