import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Members and their roles; filled by the members area. */
export default function UserManagementPage() {
  return <PagePlaceholder area="userManagement" />;
}
