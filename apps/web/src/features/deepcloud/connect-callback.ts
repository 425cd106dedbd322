// deepcloud/connect: where the cloud sends the browser back after sign-in. It runs before any page renders and
// always sends the navigation on: to the new connection, or silently to the dashboard.
import type { EntryInput } from '@/app/route-table.ts';
import { href } from '@/app/href.ts';
import { exchangeCloudCode } from './api.ts';
import { decideCloudCallback, sweepConnectStates, takeStoredConnect } from './connect-state.ts';

export interface CallbackDeps {
  storage?: Storage;
  now?: number;
  exchange?: typeof exchangeCloudCode;
}

/**
 * The stored attempt is removed as soon as it is read, whatever follows, and stale ones are swept. Missing or
 * unusable parameters and a failed exchange end on the dashboard without a message; a successful one opens the
 * connection.
 */
export async function finishCloudConnect(
  { url, accountUuid, queryClient }: EntryInput,
  { storage = localStorage, now = Date.now(), exchange = exchangeCloudCode }: CallbackDeps = {},
): Promise<string> {
  const stored = takeStoredConnect(storage, url.searchParams);
  sweepConnectStates(storage, now);
  const decision = decideCloudCallback({ search: url.searchParams, stored, accountUuid, now });
  if (decision.kind === 'dashboard' || !accountUuid) return href('dashboard');
  try {
    const connection = await exchange(queryClient, accountUuid, decision.body, decision.state);
    return href('deepcloud-connection', { uuid: connection.uuid });
  } catch {
    return href('dashboard');
  }
}

export default function enter(input: EntryInput): Promise<string> {
  return finishCloudConnect(input);
}
