import { MessageOutlined, PushpinOutlined } from '@ant-design/icons';
import { UNKNOWN_LOCATION } from '@switchboard/shared';
import { Button, theme } from 'antd';
import {
  type CSSProperties,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { EmptyState } from '@/features/inbox/components/empty-state.tsx';
import { EnquiryListPane } from '@/features/inbox/components/enquiry-list-pane.tsx';
import { useLiveInbox } from '@/features/inbox/hooks/use-live-inbox.ts';
import { useNarrowerThan } from '@/features/inbox/hooks/use-narrower-than.ts';
import { useComposeStore } from '@/features/inbox/stores/compose-store.ts';
import type { EnquiryRow, InboxUser } from '@/features/inbox/types.ts';
import type { Counts } from '@/features/inbox/utils/counters.ts';
import { useSetup } from '@/features/setup/api/get-setup.ts';
import { useUpdateSetup } from '@/features/setup/api/update-setup.ts';
import { inboxWelcome } from '@/features/setup/utils/items.ts';
import { useAppSelection } from '../layouts/use-app-selection.ts';
import { paths } from '../paths.ts';

// The conversation and the compose dialog load after the list has painted (DESIGN §10: inbox ≤ 350 KB).
const loadDeferred = () => import('@/features/inbox/components/deferred.ts');
const EnquiryView = lazy(() => loadDeferred().then((m) => ({ default: m.EnquiryView })));
const ComposeModal = lazy(() => loadDeferred().then((m) => ({ default: m.ComposeModal })));
// The customer beside the conversation: its own feature, composed here, loaded once a conversation opens.
const CustomerProfile = lazy(() => import('@/features/customers/components/customer-profile.tsx'));

// Invoices and review requests from the conversation: their own features, composed into the composer's bar.
const ConversationInvoices = lazy(() => import('@/features/invoices/components/conversation-invoices.tsx'));
const ReviewButton = lazy(() => import('@/features/reviews/components/review-button.tsx'));
/** The composer's Invoice and Review buttons, for the features the business has on. */
const conversationActions = (flags: { invoices: boolean; reviews: boolean }) => (enquiry: EnquiryRow) => (
  <Suspense fallback={null}>
    {flags.invoices && <ConversationInvoices enquiry={enquiry} />}
    {flags.reviews && <ReviewButton enquiry={enquiry} />}
  </Suspense>
);

// A new business's set-up checklist: only a business with no enquiries yet loads it.
const InboxSetup = lazy(() => import('./setup-parts.tsx'));

/** Below this width the inbox shows one pane at a time (inbox.css), so the checklist goes in the list's. */
const ONE_PANE_BELOW_PX = 821;

/**
 * The empty inbox of a business that has had no enquiry yet: the set-up checklist (or "all set"), asked of
 * the server only while the location's counts are all zero.
 */
function useInboxWelcome(location: Counts | null, canManage: boolean): ReactNode {
  const quiet =
    location !== null &&
    location.assigned_count_open +
      location.assigned_count_closed +
      location.unassigned_count_open +
      location.unassigned_count_closed ===
      0;
  const setup = useSetup({ enabled: quiet });
  const update = useUpdateSetup();
  if (!quiet || !setup.data || inboxWelcome(setup.data) === 'none') return null;
  return (
    <Suspense fallback={null}>
      <InboxSetup
        setup={setup.data}
        canManage={canManage}
        onDismiss={() => update.mutate(true)}
        dismissing={update.isPending}
      />
    </Suspense>
  );
}

const customerAside = (viewer: { id: string; isOwner: boolean }) => (enquiry: EnquiryRow) => (
  <Suspense fallback={null}>
    <CustomerProfile customerId={enquiry.customer_id} currentEnquiryId={enquiry.id} viewer={viewer} />
  </Suspense>
);

/** antd's theme tokens as CSS variables for the inbox's stylesheet, so light and dark both follow. */
function useInboxColours(): CSSProperties {
  const { token } = theme.useToken();
  return useMemo(
    () =>
      ({
        '--ib-bg': token.colorBgContainer,
        '--ib-bg-layout': token.colorBgLayout,
        '--ib-border': token.colorBorder,
        '--ib-split': token.colorSplit,
        '--ib-text': token.colorText,
        '--ib-text-2': token.colorTextSecondary,
        '--ib-text-3': token.colorTextTertiary,
        '--ib-fill': token.colorFillSecondary,
        '--ib-fill-2': token.colorFillQuaternary,
        '--ib-hover': token.controlItemBgHover,
        '--ib-selected': token.colorPrimaryBg,
        '--ib-primary': token.colorPrimary,
        '--ib-primary-text': token.colorPrimaryText,
        '--ib-success': token.colorSuccess,
        '--ib-success-bg': token.colorSuccessBg,
        '--ib-success-text': token.colorSuccessText,
        '--ib-warning': token.colorWarning,
        '--ib-warning-bg': token.colorWarningBg,
        '--ib-warning-border': token.colorWarningBorder,
        '--ib-warning-text': token.colorWarningText,
        '--ib-error': token.colorError,
        '--ib-error-bg': token.colorErrorBg,
        '--ib-error-border': token.colorErrorBorder,
        '--ib-bubble-in': token.colorFillSecondary,
        '--ib-shadow': token.boxShadowTertiary,
        '--ib-bg-elevated': token.colorBgElevated,
        '--ib-shadow-elevated': token.boxShadowSecondary,
      }) as CSSProperties,
    [token],
  );
}

/** The inbox: the live enquiry list beside the open conversation ('/inbox/:enquiryId'). */
export default function InboxRoute() {
  const { me, business, location, canManage } = useAppSelection();
  const aside = useMemo(() => customerAside({ id: me.id, isOwner: canManage }), [me.id, canManage]);
  const { enquiryId } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const colours = useInboxColours();
  const locationNames = useMemo(
    () => new Map(business.locations.map((l) => [l.id, l.name ?? UNKNOWN_LOCATION])),
    [business.locations],
  );
  const composing = useComposeStore((s) => s.composing);
  const startComposing = useComposeStore((s) => s.startComposing);
  // The dialog's code is fetched the first time it is wanted, then kept so it can animate closed.
  const [composeLoaded, setComposeLoaded] = useState(false);
  useEffect(() => {
    if (composing) setComposeLoaded(true);
  }, [composing]);
  // Warm the conversation's code once the list is up, so the first click opens at once.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 200));
    idle(() => void loadDeferred());
  }, []);

  const user = useMemo<InboxUser>(
    () => ({
      id: me.id,
      fullName: me.full_name || me.email,
      avatar: me.avatar,
      enableNotifications: me.enable_notifications,
      canManage,
      sendOnEnter: me.send_on_enter,
    }),
    [me.id, canManage, me.send_on_enter, me.full_name, me.email, me.avatar, me.enable_notifications],
  );
  const selectionKey = `${business.id}:${location?.id ?? ''}`;
  const { invoices, reviews } = me.feature_flags;
  const actions = useMemo(() => conversationActions({ invoices, reviews }), [invoices, reviews]);
  useLiveInbox({ user });
  const rootRef = useRef<HTMLDivElement>(null);
  const onePane = useNarrowerThan(rootRef, ONE_PANE_BELOW_PX);
  const welcome = useInboxWelcome(location, canManage);

  // Switching business or location leaves the enquiry that was open behind with the old list.
  const shownFor = useRef(selectionKey);
  useEffect(() => {
    if (shownFor.current === selectionKey) return;
    shownFor.current = selectionKey;
    if (enquiryId) navigate({ pathname: paths.inbox, search }, { replace: true });
  }, [selectionKey, enquiryId, navigate, search]);

  if (!location) {
    return (
      <div className="ib-root" style={colours} data-open="false">
        <section className="ib-view-pane" style={{ justifyContent: 'center' }}>
          <EmptyState
            icon={<PushpinOutlined />}
            title="No location yet"
            action={<Link to={paths.locations}>Go to Locations</Link>}
          >
            Messages arrive at a location's phone numbers and email address. Add a location to start receiving
            them.
          </EmptyState>
        </section>
      </div>
    );
  }

  const backTo = `${paths.inbox}${search}`;
  return (
    <div ref={rootRef} className="ib-root" style={colours} data-open={Boolean(enquiryId)}>
      <EnquiryListPane
        user={user}
        locationId={location.id}
        initialCounts={location}
        selectedId={enquiryId}
        basePath={paths.inbox}
        onCompose={startComposing}
        locationNames={locationNames}
        welcome={onePane ? welcome : undefined}
      />
      <section className="ib-view-pane" aria-label="Conversation">
        {enquiryId ? (
          <Suspense fallback={null}>
            <EnquiryView
              key={enquiryId}
              enquiryId={enquiryId}
              user={user}
              backTo={backTo}
              aside={aside}
              composerActions={actions}
            />
          </Suspense>
        ) : welcome && !onePane ? (
          <div style={{ flex: 1, minHeight: 0, overflowY: 'auto', padding: '32px 24px' }}>{welcome}</div>
        ) : (
          <div style={{ flex: 1, display: 'grid', placeItems: 'center' }}>
            <EmptyState
              icon={<MessageOutlined />}
              title="Pick a conversation"
              action={
                <Button type="primary" ghost onClick={startComposing}>
                  New message
                </Button>
              }
            >
              Choose an enquiry on the left to read it and reply. To write to someone who has not messaged
              yet, start a new message.
            </EmptyState>
          </div>
        )}
      </section>
      {composeLoaded && (
        <Suspense fallback={null}>
          <ComposeModal locationId={location.id} onStarted={(id) => navigate(`${paths.inbox}/${id}`)} />
        </Suspense>
      )}
    </div>
  );
}
