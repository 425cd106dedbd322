import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Invite or edit a member; filled by the members area. */
export default function MemberFormPage() {
  return <PagePlaceholder area="memberForm" />;
}
