import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Notifications of the account; filled by the inbox area. */
export default function InboxPage() {
  return <PagePlaceholder area="inbox" />;
}
