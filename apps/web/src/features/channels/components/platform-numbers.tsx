import type { PlatformNumber } from '@switchboard/shared';
import { Alert, Button, Flex, Popconfirm, Tag, Typography } from 'antd';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import { useReleaseNumber } from '../api/release-number.ts';

const STATE: Record<PlatformNumber['registration']['state'], { label: string; color: string }> = {
  not_required: { label: 'No registration needed', color: 'green' },
  required: { label: 'Registration required', color: 'orange' },
  pending: { label: 'Registration pending', color: 'blue' },
  approved: { label: 'Registered', color: 'green' },
  rejected: { label: 'Registration rejected', color: 'red' },
};

/** The numbers this location holds through Switchboard's Twilio account, what carriers need, and release. */
export function PlatformNumbers({ items }: { items: PlatformNumber[] }) {
  const release = useReleaseNumber();
  if (items.length === 0) return null;
  return (
    <section aria-label="Numbers bought through Switchboard" style={{ padding: '16px 24px' }}>
      <Typography.Text strong>Numbers bought through Switchboard</Typography.Text>
      {release.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={failureText(release.error)}
          style={{ marginTop: 8 }}
        />
      )}
      <ul
        style={{
          listStyle: 'none',
          padding: 0,
          margin: '8px 0 0',
          display: 'flex',
          flexDirection: 'column',
          gap: 12,
        }}
      >
        {items.map((n) => {
          const state = STATE[n.registration.state];
          return (
            <li key={n.id} aria-label={n.formatted}>
              <Flex justify="space-between" align="center" gap={8} wrap>
                <Flex gap={8} wrap align="center">
                  <Typography.Text copyable={{ text: n.phone_number }}>{n.formatted}</Typography.Text>
                  <Tag>{n.iso_country}</Tag>
                  <Tag color={state.color}>{state.label}</Tag>
                </Flex>
                <Popconfirm
                  title={`Release ${n.formatted}?`}
                  description="The number goes back to Twilio: texts and calls to it stop arriving, and it cannot be got back."
                  okText="Release"
                  okButtonProps={{ danger: true, loading: release.isPending }}
                  onConfirm={() =>
                    release
                      .mutateAsync(n.id)
                      .then(() => notify.success(`${n.formatted} released`))
                      // Shown above the list.
                      .catch(() => undefined)
                  }
                >
                  <Button danger size="small">
                    Release
                  </Button>
                </Popconfirm>
              </Flex>
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0', fontSize: 13 }}>
                {n.registration.summary}
              </Typography.Paragraph>
              {n.registration.action && (
                <Typography.Paragraph style={{ margin: '4px 0 0', fontSize: 13 }}>
                  <Typography.Text strong>What to do: </Typography.Text>
                  {n.registration.action}
                </Typography.Paragraph>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
