import Bowser from 'bowser';
import { SIGN_INS_PAGE_SIZE, type SignInsPage, type SignInsQuery } from '@portal/contract';
import type { Queryable } from '../../db/client.ts';
import { invalidField } from '../../http/errors.ts';
import { readSignIns, type SignInRow } from '../../idp/sign-in-history.ts';

/** A keyset position in the history: created_at (with microseconds) and id of the last entry of a page. */
const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|(\d{1,19})$/;

const encodeCursor = (row: SignInRow) => Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');

/** The cursor is opaque to clients; one that does not decode is refused as bad input, never a 500. */
function decodeCursor(cursor: string) {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidField('cursor', 'is not a cursor of this history');
  return { createdAt: match[1]!, id: match[2]! };
}

/** A page of the identity's sign-in history, newest first; browser and system parsed from the user agent. */
export async function listSignIns(
  db: Queryable,
  identityId: string,
  query: SignInsQuery,
): Promise<SignInsPage> {
  const pageSize = query.pageSize ?? SIGN_INS_PAGE_SIZE;
  const rows = await readSignIns(
    db,
    identityId,
    pageSize,
    query.cursor ? decodeCursor(query.cursor) : undefined,
  );
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    data: page.map((row) => {
      const parsed = row.user_agent ? Bowser.parse(row.user_agent) : undefined;
      const name = parsed?.browser.name;
      const major = parsed?.browser.version?.split('.')[0];
      return {
        id: row.id,
        at: row.created_at,
        outcome: row.outcome,
        method: row.method,
        browser: name ? [name, major].filter(Boolean).join(' ') : null,
        system: parsed?.os.name ?? null,
        clientAddress: row.client_address,
      };
    }),
    meta: { pageSize, nextCursor: rows.length > pageSize && last ? encodeCursor(last) : null },
  };
}
