import Bowser from 'bowser';
import { SIGN_INS_PAGE_SIZE, type SignInsPage, type SignInsQuery } from '@portal/contract';
import type { Queryable } from '../../db/client.ts';
import { decodeTimeCursor, keysetPage } from '../../db/paging.ts';
import { readSignIns } from '../../idp/sign-in-history.ts';

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
    query.cursor ? decodeTimeCursor(query.cursor, 'this history') : undefined,
  );
  const page = keysetPage(rows, pageSize);
  return {
    data: page.rows.map((row) => {
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
    meta: { pageSize, nextCursor: page.nextCursor },
  };
}
