import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Invoices and payments of the account; filled by the billing area. */
export default function BillingPage() {
  return <PagePlaceholder area="billing" />;
}
