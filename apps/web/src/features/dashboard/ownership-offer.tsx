import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { pendingTransferQuery } from './api.ts';

// The cards load when the query has found a transfer that concerns the user: most dashboards have none.
const IncomingOffer = lazy(() =>
  import('./ownership-offer-cards.tsx').then((cards) => ({ default: cards.IncomingOffer })),
);
const OutgoingOffer = lazy(() =>
  import('./ownership-offer-cards.tsx').then((cards) => ({ default: cards.OutgoingOffer })),
);

/** A pending transfer of the current account's ownership that concerns the user, if there is one. */
export function OwnershipOffer({ account, userUuid }: { account: string; userUuid: string }) {
  const { data: transfer } = useQuery(pendingTransferQuery(account));
  if (!transfer) return null;
  const Card =
    transfer.to.uuid === userUuid ? IncomingOffer : transfer.from.uuid === userUuid ? OutgoingOffer : null;
  if (!Card) return null;
  return (
    <Suspense fallback={null}>
      <Card transfer={transfer} />
    </Suspense>
  );
}
