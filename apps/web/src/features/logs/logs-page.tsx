import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** The account's change log; filled by the logs area. */
export default function LogsPage() {
  return <PagePlaceholder area="logs" />;
}
