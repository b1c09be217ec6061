import { PageHeader } from '@/components/page-header.tsx';
import { InvoicesPage } from '@/features/invoices/components/invoices-page.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function InvoicesRoute() {
  const { canManage } = useAppSelection();
  return (
    <>
      <PageHeader
        title="Invoices"
        subtitle="Every invoice your team has written: who has paid, who has looked, and what is overdue. Send new ones from a conversation."
      />
      <InvoicesPage canManage={canManage} />
    </>
  );
}
