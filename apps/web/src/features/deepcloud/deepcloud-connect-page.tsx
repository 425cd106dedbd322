import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Opened by the route's loader after the cloud accepted the code (SPEC §4 "Cloud connect entry"); choosing the organisation comes with the cloud area. */
export default function DeepcloudConnectPage() {
  return <PagePlaceholder area="deepcloudConnect" />;
}
