import { Result } from 'antd';
import { PageHeader } from '@/components/page-header.tsx';
import { usePublicConfig } from '@/features/sandbox/api/get-public-config.ts';
import { SandboxSimulator } from '@/features/sandbox/components/sandbox-simulator.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function SandboxRoute() {
  const { business, location, canManage, me } = useAppSelection();
  const config = usePublicConfig();
  if (config.data && !config.data.sandbox) {
    return <Result status="info" title="The simulator is only available in sandbox mode." />;
  }
  if (!canManage) {
    return <Result status="403" title="Only the business owner can use the simulator." />;
  }
  return (
    <>
      <PageHeader
        title="Sandbox simulator"
        subtitle="Play the customer: send a message on any channel and watch your team's replies arrive."
      />
      <SandboxSimulator
        locations={business.locations}
        defaultLocationId={location?.id ?? null}
        calls={me.feature_flags.calls}
      />
    </>
  );
}
