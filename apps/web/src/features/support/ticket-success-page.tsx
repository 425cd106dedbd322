import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Ticket confirmation; filled by the support area. */
export default function TicketSuccessPage() {
  return <PagePlaceholder area="supportTicketSuccess" />;
}
