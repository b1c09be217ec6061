import { Alert, Button, Flex, Skeleton } from 'antd';
import { PageHeader } from '@/components/page-header.tsx';
import { Panel } from '@/components/panel.tsx';
import { useSetup } from '@/features/setup/api/get-setup.ts';
import { useUpdateSetup } from '@/features/setup/api/update-setup.ts';
import { useLiveSetup } from '@/features/setup/hooks/use-live-setup.ts';
import { failureText } from '@/lib/failure-text.ts';
import { useAppSelection } from '../layouts/use-app-selection.ts';
import { ComposedChecklist } from './setup-parts.tsx';

/** Settings › Getting started: the set-up checklist, and for the owner whether the inbox shows it. */
export default function SetupRoute() {
  const { business, canManage } = useAppSelection();
  const setup = useSetup();
  const update = useUpdateSetup();
  useLiveSetup(true);
  const hidden = Boolean(setup.data?.dismissed_at);
  return (
    <>
      <PageHeader
        title="Getting started"
        subtitle={`The steps that get ${business.name} answering customers: each ticks itself once it is done.`}
      />
      {setup.isError ? (
        <Alert
          type="error"
          showIcon
          title="The checklist could not be loaded."
          description={failureText(setup.error)}
          action={<Button onClick={() => setup.refetch()}>Try again</Button>}
        />
      ) : !setup.data ? (
        <Panel>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Panel>
      ) : (
        <Flex vertical gap={16}>
          {canManage && (
            <Alert
              type={hidden ? 'warning' : 'info'}
              showIcon
              title={
                hidden
                  ? 'The checklist is hidden from the inbox.'
                  : setup.data.has_enquiries
                    ? 'Your inbox has enquiries, so it shows them instead of this checklist.'
                    : 'Your empty inbox shows this checklist until the first enquiry arrives.'
              }
              description={
                hidden ? (
                  <Button type="primary" loading={update.isPending} onClick={() => update.mutate(false)}>
                    Show it in the inbox
                  </Button>
                ) : (
                  !setup.data.has_enquiries && (
                    <Button loading={update.isPending} onClick={() => update.mutate(true)}>
                      Hide it from the inbox
                    </Button>
                  )
                )
              }
            />
          )}
          <Panel>
            <ComposedChecklist setup={setup.data} canManage={canManage} title="Set-up checklist" />
          </Panel>
        </Flex>
      )}
    </>
  );
}
