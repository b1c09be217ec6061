import {
  ApiOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  CheckSquareOutlined,
  CommentOutlined,
  CreditCardOutlined,
  DollarOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  InboxOutlined,
  MailOutlined,
  MenuOutlined,
  RobotOutlined,
  SafetyOutlined,
  ShopOutlined,
  SnippetsOutlined,
  StarOutlined,
  TagsOutlined,
  TeamOutlined,
  UsergroupAddOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { CallEvent, StaffNotification } from '@switchboard/shared';
import { Badge, Button, Flex, Grid, Layout, Menu, type MenuProps, Result, Skeleton, Spin, theme } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Brand } from '@/components/brand.tsx';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { RouteProgress } from '@/components/route-progress.tsx';
import { MAIN_ID, SkipLink } from '@/components/skip-link.tsx';
import { useMe } from '@/features/auth/api/get-me.ts';
import { SelectionSwitcher } from '@/features/auth/components/selection-switcher.tsx';
import { useSelectionCookies } from '@/features/auth/hooks/use-selection-cookies.ts';
import { currentSelection } from '@/features/auth/utils/selection.ts';
import {
  soundSettingsOf,
  useNotificationSounds,
} from '@/features/notifications/hooks/use-notification-sounds.ts';
import { usePublicConfig } from '@/features/sandbox/api/get-public-config.ts';
import { useLiveAccount } from '@/features/subscription/hooks.ts';
import { isApiError } from '@/lib/api-error.ts';
import { CREDENTIAL_COOKIES, removeCookies } from '@/lib/cookies.ts';
import { failureText } from '@/lib/failure-text.ts';
import { useLiveLabels } from '@/lib/labels.ts';
import { setBusinessCountry } from '@/lib/locale.ts';
import { notify } from '@/lib/notifier.ts';
import { isPhoneAvailable } from '@/lib/phone-requests.ts';
import { holdSocket, reconnectSocket } from '@/lib/socket.ts';
import { useSocket } from '@/lib/use-socket.ts';
import { useViewportFit } from '@/lib/use-viewport-fit.ts';
import { preloadPage } from '../pages.ts';
import { LOGIN_PATH, paths } from '../paths.ts';
import { QueryProvider } from '../query-provider.tsx';
import { useOtherLocationNews } from './use-other-location-news.ts';
import { useUnread } from './use-unread.ts';
import { UserMenu } from './user-menu.tsx';

type NavItems = NonNullable<MenuProps['items']>;

// Not needed for the first paint (DESIGN §10's inbox budget): the phone button and the strips show a moment
// after the page.
const PhoneButton = lazy(() =>
  import('@/features/phone/components/phone-button.tsx').then((m) => ({ default: m.PhoneButton })),
);
const AdminViewingBanner = lazy(() =>
  import('@/features/admin/components/viewing-banner.tsx').then((m) => ({ default: m.AdminViewingBanner })),
);
const AccountBanner = lazy(() =>
  import('@/features/subscription/components/account-banner.tsx').then((m) => ({ default: m.AccountBanner })),
);

const NO_PLACES: readonly { id: string; name: string | null }[] = [];

/** The Inbox item carries the count of open enquiries with unseen news at the person's locations. */
function withInboxBadge(items: NavItems, unread: number): NavItems {
  if (!unread) return items;
  return items.map((item) =>
    item?.key === paths.inbox
      ? {
          ...item,
          label: (
            <span className="nav-inbox-label">
              Inbox <Badge count={unread} overflowCount={99} size="small" aria-label={`${unread} unread`} />
            </span>
          ),
        }
      : item,
  ) as NavItems;
}

const NAV_ITEMS: NavItems = [
  { key: paths.inbox, icon: <InboxOutlined />, label: 'Inbox' },
  { key: paths.customers, icon: <TeamOutlined />, label: 'Customers' },
  { key: paths.invoices, icon: <DollarOutlined />, label: 'Invoices' },
  { key: paths.reviews, icon: <StarOutlined />, label: 'Reviews' },
  { key: paths.analytics, icon: <BarChartOutlined />, label: 'Analytics' },
  { key: paths.locations, icon: <EnvironmentOutlined />, label: 'Locations' },
  {
    key: 'settings',
    type: 'group',
    label: 'Settings',
    children: [
      { key: paths.setup, icon: <CheckSquareOutlined />, label: 'Getting started' },
      { key: paths.businessSettings, icon: <ShopOutlined />, label: 'Business profile' },
      { key: paths.team, icon: <UsergroupAddOutlined />, label: 'Team' },
      { key: paths.notifications, icon: <BellOutlined />, label: 'Notifications' },
      { key: paths.contacts, icon: <MailOutlined />, label: 'Phones & emails' },
      { key: paths.channels, icon: <ApiOutlined />, label: 'Channels & forms' },
      { key: paths.widget, icon: <CommentOutlined />, label: 'Website chat' },
      { key: paths.templates, icon: <SnippetsOutlined />, label: 'Message templates' },
      { key: paths.labels, icon: <TagsOutlined />, label: 'Labels' },
      { key: paths.assistant, icon: <RobotOutlined />, label: 'AI assistant' },
      { key: paths.payments, icon: <CreditCardOutlined />, label: 'Payments & invoices' },
      { key: paths.subscription, icon: <WalletOutlined />, label: 'Subscription' },
      { key: paths.auditLog, icon: <AuditOutlined />, label: 'Audit log' },
    ],
  },
];

/** Pages that belong to a feature an administrator can turn off for a business (`FEATURE_FLAGS`). */
const FLAGGED_PAGES: Record<string, 'invoices' | 'reviews' | 'assistant'> = {
  [paths.invoices]: 'invoices',
  [paths.payments]: 'invoices',
  [paths.reviews]: 'reviews',
  [paths.assistant]: 'assistant',
};

/**
 * Pages where only owners (and administrators) can do anything: staff would find only "Only the business
 * owner can…", so their menu leaves them out (the pages still open read-only from a link). Staff keep the
 * pages they use: Locations (hours and addresses), Channels & forms (the numbers and addresses customers
 * use), Labels, Team and their own Notifications.
 */
const OWNER_PAGES = new Set<string>([
  paths.businessSettings,
  paths.contacts,
  paths.widget,
  paths.templates,
  paths.assistant,
  paths.payments,
  paths.subscription,
  paths.auditLog,
]);

/** The menu without the pages of features that are off for this business. */
function withoutOffFeatures(items: NavItems, flags: Record<string, boolean>, owner: boolean): NavItems {
  const on = (key: unknown) => {
    if (typeof key === 'string' && OWNER_PAGES.has(key) && !owner) return false;
    const flag = typeof key === 'string' ? FLAGGED_PAGES[key] : undefined;
    return !flag || flags[flag] !== false;
  };
  return items
    .filter((item) => on(item?.key))
    .map((item) =>
      item && 'children' in item && item.children
        ? { ...item, children: item.children.filter((child) => on(child?.key)) }
        : item,
    ) as NavItems;
}

/** Super admins: the console of every business. */
const ADMIN_NAV_ITEM = { key: paths.admin, icon: <SafetyOutlined />, label: 'Admin console' };

/** Only in sandbox mode, and only for owners: a person plays the customer. */
const SANDBOX_NAV_ITEM = { key: paths.sandbox, icon: <ExperimentOutlined />, label: 'Sandbox' };

/** Below antd's `lg` breakpoint (992 px): what `Grid.useBreakpoint().lg === false` says once it has measured. */
const isNarrow = () => typeof window !== 'undefined' && window.matchMedia('(max-width: 991.98px)').matches;

function PageFallback() {
  return (
    <RouteProgress>
      <Skeleton active paragraph={{ rows: 6 }} />
    </RouteProgress>
  );
}

/** A user with no selected business has their tokens cleared and goes to '/' (spec §6). */
function NoBusiness() {
  useEffect(() => removeCookies(CREDENTIAL_COOKIES), []);
  return <Navigate to={LOGIN_PATH} replace />;
}

/**
 * The app's one socket, held for as long as someone is signed in with a business, whatever page is open, so
 * live events (new messages, and later calls and notifications) reach every screen. A switch of business or
 * location (a new token) reconnects it to the new rooms.
 */
function useAppSocket(selectionKey: string | null): void {
  const signedIn = selectionKey !== null;
  useEffect(() => (signedIn ? holdSocket() : undefined), [signedIn]);
  const previousKey = useRef(selectionKey);
  useEffect(() => {
    if (previousKey.current === selectionKey) return;
    const switched = previousKey.current !== null && selectionKey !== null;
    previousKey.current = selectionKey;
    if (switched) reconnectSocket();
  }, [selectionKey]);
}

/** What the server tells this person alone (their customer is back, a mention), on whatever page is open. */
function useAttentionNotices(): void {
  const { socket } = useSocket();
  useEffect(() => {
    if (!socket) return;
    const onNotification = (n: StaffNotification) =>
      notify.attention({
        title: n.title,
        body: n.body,
        href: `${paths.inbox}/${encodeURIComponent(n.enquiry_id)}`,
        action: 'Open the enquiry',
      });
    socket.on('notification', onNotification);
    return () => {
      socket.off('notification', onNotification);
    };
  }, [socket]);
}

/**
 * A browser already allowed and subscribed to pushes is confirmed to the server on each start (its service worker
 * gets the current token), after the first paint: nothing is asked of the person here.
 */
function useKeepPushCurrent(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1500));
    idle(() => {
      import('@/lib/push.ts')
        .then((push) => push.keepPushCurrent())
        .catch(() => {
          // Pushes are a nicety on top of the live inbox; the settings page says what is wrong.
        });
    });
  }, [enabled]);
}

const RINGING = new Set(['queued', 'initiated', 'ringing']);

/**
 * A customer ringing the location shows on every page for everyone there, with who it is and a way into
 * their conversation, until the call is taken or over.
 */
function useRingingCalls(): void {
  const { socket } = useSocket();
  useEffect(() => {
    if (!socket) return;
    const key = (call: CallEvent) => `call:${call.id}`;
    const onIncoming = (call: CallEvent) => {
      // A browser whose phone is available rings with its own answer/decline toast instead.
      if (call.direction !== 'in' || !RINGING.has(call.status) || isPhoneAvailable()) return;
      notify.ringing({
        key: key(call),
        title: `${call.caller_name ?? call.from} is calling`,
        body: call.caller_name ? call.from : 'A caller not yet in your customers.',
        href: `${paths.inbox}/${encodeURIComponent(call.enquiry_id)}`,
        action: 'Open the conversation',
      });
    };
    const onUpdated = (call: CallEvent) => {
      if (!RINGING.has(call.status) || call.user || call.voicemail) notify.callEnded(key(call));
    };
    socket.on('call.incoming', onIncoming);
    socket.on('call.updated', onUpdated);
    return () => {
      socket.off('call.incoming', onIncoming);
      socket.off('call.updated', onUpdated);
    };
  }, [socket]);
}

function AppShell() {
  const me = useMe();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  // Spec §2: the side drawer starts open — on a desktop. On a phone it starts closed and opens over the page
  // from the top bar's menu button (the page keeps its full width, nothing scrolls sideways), closing again
  // once a page is chosen.
  // A tablet starts with the narrow menu (icons), leaving the room to the page.
  const screens = Grid.useBreakpoint();
  const phone = screens.md === false;
  const tablet = screens.lg === false;
  const [collapsed, setCollapsed] = useState(isNarrow);
  useEffect(() => {
    if (tablet) setCollapsed(true);
  }, [tablet]);
  const selection = me.data ? currentSelection(me.data) : null;
  // Before anything below renders a date, an amount or a number: they are written as in the business's country.
  setBusinessCountry(selection?.business.country);
  const publicConfig = usePublicConfig();
  // The inbox fills the space under the top bar edge to edge, and '/inbox/{id}' is still the inbox page.
  const inInbox = pathname === paths.inbox || pathname.startsWith(`${paths.inbox}/`);
  const page = inInbox ? paths.inbox : pathname;
  useSelectionCookies(selection);
  useAppSocket(selection ? `${selection.business.id}:${selection.location?.id ?? ''}` : null);
  useAttentionNotices();
  useLiveLabels();
  useLiveAccount();
  useRingingCalls();
  useViewportFit();
  useNotificationSounds(me.data ? soundSettingsOf(me.data) : null);
  useKeepPushCurrent(me.data?.enable_notifications ?? false);
  const { unread, byLocation } = useUnread(selection?.location?.id ?? null);
  useOtherLocationNews(selection?.location?.id ?? null, selection?.business.locations ?? NO_PLACES);

  // The page's own chunk downloads while the user loads, rather than after.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the first path matters here.
  useEffect(() => preloadPage(pathname), []);

  // A 401 or a user without a business is already on its way to '/': keep the spinner until it gets there.
  const leaving = isApiError(me.error) && (me.error.status === 401 || me.error.code === 'no_business');
  if (me.isPending || leaving) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
        <Spin size="large" />
      </Flex>
    );
  }
  if (me.isError) {
    return (
      <Result
        status="warning"
        title="We could not load your account"
        subTitle={failureText(me.error)}
        extra={
          <Button type="primary" onClick={() => me.refetch()}>
            Try again
          </Button>
        }
        style={{ paddingTop: '15vh' }}
      />
    );
  }
  if (!selection) return <NoBusiness />;

  // The light sider and menu follow the algorithm: white in light mode, the container grey in dark mode.
  const siderTheme = 'light';
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        collapsedWidth={phone ? 0 : 80}
        // On a phone the drawer opens from the top bar's menu button instead.
        trigger={phone ? null : undefined}
        width={240}
        theme={siderTheme}
        style={{
          borderRight: `1px solid ${token.colorSplit}`,
          position: phone ? 'fixed' : 'sticky',
          insetInlineStart: 0,
          top: 0,
          height: '100vh',
          // The zero-width tab that reopens the drawer on a phone sits outside it: not clipped there.
          overflow: phone ? 'visible' : 'auto',
          zIndex: phone ? 110 : undefined,
          boxShadow: phone && !collapsed ? token.boxShadowSecondary : undefined,
        }}
      >
        <Flex align="center" style={{ height: 64, paddingInline: collapsed ? 24 : 20 }}>
          <Brand collapsed={collapsed} />
        </Flex>
        {/* Room under the last item for the collapse trigger, which sits over the bottom of the scrolling menu. */}
        <nav aria-label="Main" style={{ paddingBottom: phone ? 0 : 56 }}>
          <Menu
            mode="inline"
            theme={siderTheme}
            selectedKeys={[page]}
            items={withInboxBadge(
              withoutOffFeatures(
                [
                  ...NAV_ITEMS,
                  ...(publicConfig.data?.sandbox && selection.canManage ? [SANDBOX_NAV_ITEM] : []),
                  ...(selection.me.super_admin ? [ADMIN_NAV_ITEM] : []),
                ],
                selection.me.feature_flags,
                selection.canManage,
              ),
              unread,
            )}
            onClick={({ key }) => {
              navigate(key);
              if (phone) setCollapsed(true);
            }}
            style={{ borderInlineEnd: 'none' }}
          />
        </nav>
      </Layout.Sider>
      {phone && !collapsed && (
        // The page behind the open drawer: a tap on it closes the drawer.
        <div aria-hidden className="app-drawer-backdrop" onClick={() => setCollapsed(true)} />
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          className="app-header"
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: phone ? 8 : 16,
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorSplit}`,
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          <Flex align="center" gap={4} style={{ minWidth: 0 }}>
            {phone && (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label="Open the menu"
                aria-expanded={!collapsed}
                onClick={() => setCollapsed(false)}
              />
            )}
            <SelectionSwitcher selection={selection} unread={byLocation} />
          </Flex>
          <Flex align="center" gap={phone ? 0 : 8}>
            {selection.me.feature_flags.calls && (
              <Suspense fallback={null}>
                <PhoneButton
                  locationId={selection.location?.id ?? null}
                  ringtone={selection.me.ringtone_call}
                  userId={selection.me.id}
                />
              </Suspense>
            )}
            <UserMenu selection={selection} />
          </Flex>
        </Layout.Header>
        <Suspense fallback={null}>
          {selection.me.super_admin && selection.business.role === null ? (
            // An administrator inside a business they help; none on the console itself.
            page !== paths.admin && <AdminViewingBanner businessName={selection.business.name} />
          ) : (
            <AccountBanner
              business={selection.business}
              canManage={selection.canManage}
              offerReferral={selection.isOwner}
            />
          )}
        </Suspense>
        <Layout.Content id={MAIN_ID} tabIndex={-1} style={{ padding: inInbox ? 0 : phone ? 16 : 24 }}>
          <div style={inInbox ? undefined : { maxWidth: 1200, margin: '0 auto' }}>
            <ErrorBoundary key={page}>
              <Suspense fallback={<PageFallback />}>
                <Outlet context={selection} />
              </Suspense>
            </ErrorBoundary>
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

export default function AppLayout() {
  return (
    <QueryProvider>
      <AppShell />
    </QueryProvider>
  );
}
