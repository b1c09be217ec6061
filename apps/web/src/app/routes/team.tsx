import { PageHeader } from '@/components/page-header.tsx';
import { TeamPage } from '@/features/team/components/team-page.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function TeamRoute() {
  const { canManage, me, business } = useAppSelection();
  return (
    <>
      <PageHeader
        title="Team"
        subtitle="Who answers your customers, and where. Owners invite people by email, choose their locations and remove them."
      />
      <TeamPage
        canManage={canManage}
        meId={me.id}
        ownerId={business.owner_user_id}
        locations={business.locations}
      />
    </>
  );
}
