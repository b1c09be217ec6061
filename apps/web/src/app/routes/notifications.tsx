import { PageHeader } from '@/components/page-header.tsx';
import { NotificationsPage } from '@/features/notifications/components/notifications-page.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function NotificationsRoute() {
  const { me } = useAppSelection();
  return (
    <>
      <PageHeader
        title="Notifications"
        subtitle="Hear and see every new enquiry and message, even in another tab or with the browser minimised."
      />
      <NotificationsPage me={me} />
    </>
  );
}
