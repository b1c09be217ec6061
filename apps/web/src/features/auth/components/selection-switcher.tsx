import { EnvironmentOutlined, ShopOutlined } from '@ant-design/icons';
import { UNKNOWN_LOCATION } from '@switchboard/shared';
import { Badge, Divider, Select, Space, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { notify } from '@/lib/notifier.ts';
import { useSwitchSelection } from '../api/switch-selection.ts';

const ALL = 'all';

import type { CurrentSelection } from '../utils/selection.ts';

/** Business (when the user has more than one) and location pickers; PUT /user/switch on change. */
export function SelectionSwitcher({
  selection,
  unread,
}: {
  selection: CurrentSelection;
  /** Open enquiries with unseen news, per location of the selected business: shown beside each one. */
  unread?: ReadonlyMap<string, number>;
}) {
  const switchMutation = useSwitchSelection();
  const { me, business, location } = selection;
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // Anyone working at several locations may see all of theirs at once (the inbox's own view): the account
  // lists only the locations a person works at, and the server answers for those only.
  const offerAll = business.locations.length > 1;
  const showingAll =
    offerAll && pathname.startsWith('/inbox') && new URLSearchParams(search).get('location') === 'all';

  const switchTo = (businessId: string, locationId?: string) =>
    switchMutation.mutate(
      { business_id: businessId, ...(locationId ? { location_id: locationId } : {}) },
      {
        onSuccess: () => {
          const target = me.businesses.find((b) => b.id === businessId);
          const loc = target?.locations.find((l) => l.id === locationId);
          notify.success(
            `Switched to ${loc ? (loc.name ?? UNKNOWN_LOCATION) : (target?.name ?? 'business')}`,
          );
        },
      },
    );

  return (
    <Space size="small" className="selection-switcher">
      {me.businesses.length === 1 && (
        <Typography.Text strong className="selection-business-name" style={{ whiteSpace: 'nowrap' }}>
          <BusinessMark image={business.image} />
          {business.name}
        </Typography.Text>
      )}
      {me.businesses.length > 1 && (
        <Select
          aria-label="Business"
          value={business.id}
          className="selection-business"
          loading={switchMutation.isPending}
          disabled={switchMutation.isPending}
          prefix={<BusinessMark image={business.image} />}
          options={me.businesses.map((b) => ({ value: b.id, label: b.name }))}
          onChange={(id: string) => switchTo(id)}
        />
      )}
      <Divider orientation="vertical" className="selection-divider" />
      <Select
        aria-label="Location"
        value={showingAll ? ALL : location?.id}
        placeholder="No locations yet"
        className="selection-location"
        variant="filled"
        loading={switchMutation.isPending}
        disabled={switchMutation.isPending || business.locations.length === 0}
        suffixIcon={<EnvironmentOutlined />}
        options={[
          ...(offerAll ? [{ value: ALL, label: 'All locations' }] : []),
          ...business.locations.map((l) => ({ value: l.id, label: l.name ?? UNKNOWN_LOCATION })),
        ]}
        optionRender={(option) => {
          const n =
            option.value === ALL
              ? [...(unread?.values() ?? [])].reduce((sum, x) => sum + x, 0)
              : (unread?.get(String(option.value)) ?? 0);
          return (
            <span style={{ display: 'flex', justifyContent: 'space-between', gap: 12 }}>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{option.label}</span>
              {n > 0 && <Badge count={n} overflowCount={99} size="small" aria-label={`${n} unread`} />}
            </span>
          );
        }}
        onChange={(id: string) => {
          if (id === ALL) return navigate('/inbox?location=all');
          if (showingAll) navigate('/inbox');
          switchTo(business.id, id);
        }}
      />
    </Space>
  );
}

/** The business's logo (uploaded in Business profile) beside its name, else the shop icon. */
function BusinessMark({ image }: { image: string | null }) {
  if (!image) return <ShopOutlined style={{ marginInlineEnd: 8 }} />;
  return (
    <img
      src={image}
      alt=""
      style={{
        width: 24,
        height: 24,
        objectFit: 'contain',
        borderRadius: 4,
        marginInlineEnd: 8,
        verticalAlign: 'middle',
      }}
    />
  );
}
