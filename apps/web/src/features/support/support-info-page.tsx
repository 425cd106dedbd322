import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Support contacts and information; filled by the support area. */
export default function SupportInfoPage() {
  return <PagePlaceholder area="supportInfo" />;
}
