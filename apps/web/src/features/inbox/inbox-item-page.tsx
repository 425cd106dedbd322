import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** One notification; filled by the inbox area. */
export default function InboxItemPage() {
  return <PagePlaceholder area="inboxItem" />;
}
