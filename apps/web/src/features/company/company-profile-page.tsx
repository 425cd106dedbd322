import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Company details of the account; filled by the company area. */
export default function CompanyProfilePage() {
  return <PagePlaceholder area="companyProfile" />;
}
