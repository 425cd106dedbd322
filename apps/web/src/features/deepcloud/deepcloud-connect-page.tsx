import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/**
 * Opened by the route's loader once the cloud accepted the code (the connect state is read once and expires
 * after 60 minutes); choosing the organisation comes with the cloud area.
 */
export default function DeepcloudConnectPage() {
  return <PagePlaceholder area="deepcloudConnect" />;
}
