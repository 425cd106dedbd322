import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** One cloud connection (`uuid` comes from the route as a prop); filled by the cloud area. */
export default function ConnectionPage(_props: { uuid?: string }) {
  return <PagePlaceholder area="deepcloudConnection" />;
}
