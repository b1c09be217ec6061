import { PageHeader } from '@/components/page-header.tsx';
import { LabelsPanel } from '@/features/labels/components/labels-panel.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function LabelsRoute() {
  const { canManage } = useAppSelection();
  return (
    <>
      <PageHeader
        title="Labels"
        subtitle="Coloured labels your team puts on enquiries, and filters the inbox by."
      />
      <LabelsPanel canManage={canManage} />
    </>
  );
}
