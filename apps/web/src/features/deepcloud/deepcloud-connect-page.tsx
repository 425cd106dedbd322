import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/**
 * Opened by the route's loader once the cloud accepted the code (SPEC §4 "Cloud connect entry", SPEC-DECISIONS 31);
 * choosing the organisation comes with the cloud area.
 */
export default function DeepcloudConnectPage() {
  return <PagePlaceholder area="deepcloudConnect" />;
}
