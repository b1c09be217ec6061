import { UNKNOWN_LOCATION } from '@switchboard/shared';
import { Flex } from 'antd';
import { PageHeader } from '@/components/page-header.tsx';
import { ContactsCard } from '@/features/contacts/components/contacts-card.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function ContactsRoute() {
  const { business, canManage } = useAppSelection();
  const locations = business.locations.map((l) => ({ value: l.id, label: l.name ?? UNKNOWN_LOCATION }));
  return (
    <>
      <PageHeader title="Phones & emails" subtitle="The numbers and addresses customers use to reach you." />
      <Flex vertical gap={24}>
        <ContactsCard kind="phone" locations={locations} canManage={canManage} />
        <ContactsCard kind="email" locations={locations} canManage={canManage} />
      </Flex>
    </>
  );
}
