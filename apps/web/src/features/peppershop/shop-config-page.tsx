import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Shop configuration; filled by the shop area. */
export default function ShopConfigPage() {
  return <PagePlaceholder area="peppershopConfig" />;
}
