import { CheckCircleOutlined } from '@ant-design/icons';
import type { SetupChecklistJson, SetupItemKey } from '@switchboard/shared';
import { Alert, Button, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { EmptyState } from '@/features/inbox/components/empty-state.tsx';
import { SetupChecklist } from '@/features/setup/components/setup-checklist.tsx';
import { useLiveSetup } from '@/features/setup/hooks/use-live-setup.ts';
import { useWidgetSettings } from '@/features/widget/api/get-widget-settings.ts';
import { WidgetSnippet } from '@/features/widget/components/widget-snippet.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { paths } from '../paths.ts';

const at = (path: string, locationId: string | null, param = 'location') =>
  locationId ? `${path}?${param}=${encodeURIComponent(locationId)}` : path;

/** The screen that does each item, at the location the checklist names. */
export function setupHref(key: SetupItemKey, locationId: string | null): string {
  switch (key) {
    case 'number':
      return locationId ? `${paths.channels}#location-${locationId}` : paths.channels;
    case 'chat':
      return at(paths.widget, locationId);
    case 'team':
      return paths.team;
    case 'assistant':
      return `${paths.assistant}?tab=faqs`;
    case 'payments':
      return paths.payments;
    case 'review_link':
      return at(paths.reviews, locationId);
    case 'hours':
      return at(paths.locations, locationId, 'edit');
    default: {
      const never: never = key;
      return never;
    }
  }
}

/** The website chat's snippet for a location, as the widget settings screen shows it. */
function ChatSnippet({ locationId }: { locationId: string }) {
  const settings = useWidgetSettings(locationId);
  if (settings.isError) return <Alert type="error" showIcon title={failureText(settings.error)} />;
  if (!settings.data) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  return <WidgetSnippet settings={settings.data} />;
}

const chatSnippet = (locationId: string) => <ChatSnippet locationId={locationId} />;

/** The checklist with this app's screens and the widget's snippet composed in (its page keeps it live). */
export function ComposedChecklist({
  setup,
  canManage,
  footer,
  title,
}: {
  setup: SetupChecklistJson;
  canManage: boolean;
  footer?: ReactNode;
  title?: string;
}) {
  return (
    <SetupChecklist
      setup={setup}
      canManage={canManage}
      hrefOf={setupHref}
      chatSnippet={chatSnippet}
      sandboxHref={paths.sandbox}
      footer={footer}
      title={title}
    />
  );
}

/**
 * The empty inbox of a business with no enquiries yet: the checklist (the owner may put it away), or, once
 * every step is done, a plain word that it is ready.
 */
export default function InboxSetup({
  setup,
  canManage,
  onDismiss,
  dismissing,
}: {
  setup: SetupChecklistJson;
  canManage: boolean;
  onDismiss: () => void;
  dismissing: boolean;
}) {
  const complete = setup.items.every((i) => i.done);
  useLiveSetup(true);
  if (complete) {
    return (
      <EmptyState icon={<CheckCircleOutlined />} title="You’re all set up">
        Every set-up step is done. Texts, chats and emails from customers appear here as they arrive.
      </EmptyState>
    );
  }
  return (
    <div className="setup-in-inbox">
      <ComposedChecklist
        setup={setup}
        canManage={canManage}
        footer={
          canManage && (
            <div>
              <Button type="link" onClick={onDismiss} loading={dismissing} style={{ paddingInline: 0 }}>
                Hide this checklist
              </Button>
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                You can bring it back from Settings › Getting started.
              </Typography.Text>
            </div>
          )
        }
      />
    </div>
  );
}
