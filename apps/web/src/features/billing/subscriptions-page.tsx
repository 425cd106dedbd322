import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Subscriptions of the account; filled by the billing area. */
export default function SubscriptionsPage() {
  return <PagePlaceholder area="subscriptions" />;
}
