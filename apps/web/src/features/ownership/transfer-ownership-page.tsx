import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Transfer ownership; filled by the ownership area. */
export default function TransferOwnershipPage() {
  return <PagePlaceholder area="transferOwnership" />;
}
