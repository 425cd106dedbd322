import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Add a digital coach; filled by the members area. */
export default function DigitalCoachFormPage() {
  return <PagePlaceholder area="digitalCoachForm" />;
}
