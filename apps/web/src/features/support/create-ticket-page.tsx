import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** New support ticket; filled by the support area. */
export default function CreateTicketPage() {
  return <PagePlaceholder area="supportTicket" />;
}
