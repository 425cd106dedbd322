import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Who owns the account; filled by the ownership area. */
export default function OwnershipPage() {
  return <PagePlaceholder area="ownership" />;
}
