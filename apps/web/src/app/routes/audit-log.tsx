import { PageHeader } from '@/components/page-header.tsx';
import { AuditLog } from '@/features/admin/components/audit-log.tsx';

export default function AuditLogRoute() {
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="What the owners, and Switchboard administrators helping you, changed in this business, newest first."
      />
      <AuditLog scope="business" businessId={null} />
    </>
  );
}
