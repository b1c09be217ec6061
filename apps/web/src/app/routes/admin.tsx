import { Navigate } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { AdminConsole } from '@/features/admin/components/admin-console.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';
import { APP_HOME } from '../paths.ts';

export default function AdminRoute() {
  const { me } = useAppSelection();
  // The server refuses everyone else too; this only keeps the page from opening for them.
  if (!me.super_admin) return <Navigate to={APP_HOME} replace />;
  return (
    <>
      <PageHeader
        title="Admin console"
        subtitle="Every business on this Switchboard: plan, status and usage. Open one to help it; extend a trial, change a plan, turn features on or off."
      />
      <AdminConsole />
    </>
  );
}
