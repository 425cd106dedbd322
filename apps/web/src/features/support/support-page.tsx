import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Support home; filled by the support area. */
export default function SupportPage() {
  return <PagePlaceholder area="support" />;
}
