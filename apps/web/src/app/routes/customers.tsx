import { PageHeader } from '@/components/page-header.tsx';
import { CustomersList } from '@/features/customers/components/customers-list.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function CustomersRoute() {
  const { me, canManage } = useAppSelection();
  return (
    <>
      <PageHeader
        title="Customers"
        subtitle="Everyone who has written to you, on any channel: find them, correct their details, merge duplicates."
      />
      <CustomersList viewer={{ id: me.id, isOwner: canManage }} />
    </>
  );
}
