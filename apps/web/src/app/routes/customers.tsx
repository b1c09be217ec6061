import { PageHeader } from '@/components/page-header.tsx';
import { CustomersList } from '@/features/customers/components/customers-list.tsx';

export default function CustomersRoute() {
  return (
    <>
      <PageHeader
        title="Customers"
        subtitle="Everyone who has written to you, on any channel: find them, correct their details, merge duplicates."
      />
      <CustomersList />
    </>
  );
}
