import { UNKNOWN_LOCATION } from '@switchboard/shared';
import { Alert, Flex, Select, Skeleton } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { Panel } from '@/components/panel.tsx';
import { useIntakeLimits } from '@/features/widget/api/get-intake-limits.ts';
import { useWidgetSettings } from '@/features/widget/api/get-widget-settings.ts';
import { IntakeLimitsForm } from '@/features/widget/components/intake-limits-form.tsx';
import { WidgetSettingsForm } from '@/features/widget/components/widget-settings-form.tsx';
import { WidgetSnippet } from '@/features/widget/components/widget-snippet.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

/** Each location has its own chat widget: title, colour, greeting, pre-chat form, snippet and spam limits. */
export default function WidgetRoute() {
  const { business, location, canManage } = useAppSelection();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('location');
  const chosen = business.locations.find((l) => l.id === asked) ?? location ?? business.locations[0] ?? null;
  const settings = useWidgetSettings(chosen?.id ?? '');
  const limits = useIntakeLimits(chosen?.id ?? '');

  const picker = business.locations.length > 1 && chosen && (
    <Select
      aria-label="Widget location"
      value={chosen.id}
      style={{ minWidth: 240 }}
      options={business.locations.map((l) => ({ value: l.id, label: l.name ?? UNKNOWN_LOCATION }))}
      onChange={(id) => setSearch({ location: id }, { replace: true })}
    />
  );

  return (
    <>
      <PageHeader
        title="Website chat"
        subtitle="The chat bubble for your website: how it looks, what it asks visitors, and the code to add it."
        extra={picker}
      />
      {!chosen ? (
        <Alert type="info" showIcon title="Add a location first: each location has its own chat widget." />
      ) : settings.isError ? (
        <Alert
          type="error"
          showIcon
          title="The widget settings could not be loaded. Try again in a moment."
        />
      ) : !settings.data ? (
        <Panel>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Panel>
      ) : (
        <Flex vertical gap={24}>
          {!canManage && (
            <Alert type="info" showIcon title="Only the business owner can change the chat widget." />
          )}
          <Panel title={`Appearance and pre-chat form · ${chosen.name ?? UNKNOWN_LOCATION}`}>
            <WidgetSettingsForm key={chosen.id} settings={settings.data} canManage={canManage} />
          </Panel>
          <Panel title="Add it to your website">
            <WidgetSnippet settings={settings.data} />
          </Panel>
          <Panel title={`Spam limits · ${chosen.name ?? UNKNOWN_LOCATION}`}>
            {limits.data ? (
              <IntakeLimitsForm key={chosen.id} settings={limits.data} canManage={canManage} />
            ) : limits.isError ? (
              <Alert
                type="error"
                showIcon
                title="The spam limits could not be loaded. Try again in a moment."
              />
            ) : (
              <Skeleton active paragraph={{ rows: 4 }} />
            )}
          </Panel>
        </Flex>
      )}
    </>
  );
}
