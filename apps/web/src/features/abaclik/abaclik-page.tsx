import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Account-scoped AbaClik integration; filled by the integrations area. */
export default function AbaclikPage() {
  return <PagePlaceholder area="abaclik" />;
}
