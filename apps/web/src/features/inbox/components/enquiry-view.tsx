import { FileSearchOutlined } from '@ant-design/icons';
import { customerCalled } from '@switchboard/shared';
import { Button, Drawer, Grid } from 'antd';
import { type DragEvent, type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { isApiError } from '@/lib/api-error.ts';
import { failureText } from '@/lib/failure-text.ts';
import { useEnquiry } from '../api/get-enquiry.ts';
import { useMarkEnquirySeen } from '../api/mark-enquiry-seen.ts';
import { useEnquiryPresence } from '../hooks/use-enquiry-presence.ts';
import { useReadMentions } from '../hooks/use-read-mentions.ts';
import type { EnquiryRow, InboxUser } from '../types.ts';
import { CollisionBar } from './collision-bar.tsx';
import type { ComposerHandle } from './composer.tsx';
import { EmptyState } from './empty-state.tsx';
import { EnquiryHeader } from './enquiry-header.tsx';
import { MessageThread } from './message-thread.tsx';
import { Placeholder } from './placeholder.tsx';
import { ReplyArea } from './reply-area.tsx';
import './enquiry-view.css';

function subscribeVisibility(onChange: () => void) {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}
const pageVisible = () => document.visibilityState === 'visible';

/**
 * The open enquiry: header and actions, the collision warning, the thread and the composer. Opening it
 * joins its room (so others see who is here) and marks it read — again whenever a new customer message
 * arrives while it is on screen.
 */
const PANEL_KEY = 'sb.customerPanel';

export default function EnquiryView({
  enquiryId,
  user,
  backTo,
  aside,
  composerActions,
}: {
  enquiryId: string;
  user: InboxUser;
  backTo: string;
  /** The customer beside the conversation (composed by the page): a column when wide, a drawer when not. */
  aside?: (enquiry: EnquiryRow) => ReactNode;
  /** More of the composer's bar (composed by the page), e.g. invoices. */
  composerActions?: (enquiry: EnquiryRow) => ReactNode;
}) {
  const enquiry = useEnquiry(enquiryId);
  const presence = useEnquiryPresence(enquiryId, user.id);
  const markSeen = useMarkEnquirySeen();
  const visible = useSyncExternalStore(subscribeVisibility, pageVisible, () => true);
  useReadMentions(enquiryId, user.id, visible);
  const marked = useRef<string | null>(null);
  const composer = useRef<ComposerHandle>(null);
  const [dropping, setDropping] = useState(false);
  // Beside the thread on a wide screen (remembered, open by default); a drawer, closed at first, otherwise.
  const wide = Grid.useBreakpoint().xl === true;
  const [panelWanted, setPanelWanted] = useState(() => localStorage.getItem(PANEL_KEY) !== 'closed');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const panelOpen = wide ? panelWanted : drawerOpen;
  const togglePanel = () => {
    if (!wide) return setDrawerOpen((v) => !v);
    setPanelWanted((v) => {
      localStorage.setItem(PANEL_KEY, v ? 'closed' : 'open');
      return !v;
    });
  };

  const row = enquiry.data;
  const { mutate } = markSeen;
  useEffect(() => {
    if (!row || row.seen || !visible) return;
    // Once per new message: the list's copy and the fresh one may both say unread for a moment.
    const key = `${row.id}@${row.last_message_at}`;
    if (marked.current === key) return;
    marked.current = key;
    mutate(row.id);
  }, [row, visible, mutate]);

  if (!row) {
    if (enquiry.isError) {
      const missing =
        isApiError(enquiry.error) && (enquiry.error.status === 404 || enquiry.error.status === 403);
      return (
        <EmptyState
          icon={<FileSearchOutlined />}
          title={missing ? 'This enquiry is not here' : 'We could not load this enquiry'}
          action={
            missing ? (
              <Link to={backTo}>Back to the inbox</Link>
            ) : (
              <Button onClick={() => enquiry.refetch()}>Try again</Button>
            )
          }
        >
          {missing
            ? 'It may belong to another location or business, or the link is wrong.'
            : failureText(enquiry.error)}
        </EmptyState>
      );
    }
    return (
      <div style={{ padding: 20 }} aria-busy="true">
        <span className="sr-only">Loading enquiry…</span>
        <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
          <Placeholder width={40} height={40} round />
          <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 8 }}>
            <Placeholder width="30%" height={14} />
            <Placeholder width="45%" height={10} />
          </div>
        </div>
      </div>
    );
  }

  // Files dropped anywhere on the conversation are attached to the reply.
  const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');
  const onDragOver = (e: DragEvent) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDropping(true);
  };
  const onDrop = (e: DragEvent) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    setDropping(false);
    composer.current?.addFiles([...e.dataTransfer.files]);
  };

  return (
    <section
      aria-label={`Conversation with ${customerCalled(row.customer, 'customer')}`}
      className={dropping ? 'ib-drop-target' : undefined}
      style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, minWidth: 0 }}
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={onDrop}
    >
      <EnquiryHeader
        enquiry={row}
        userId={user.id}
        backTo={backTo}
        customerPanel={aside ? { open: panelOpen, toggle: togglePanel } : undefined}
        canManageLabels={user.canManage}
      />
      <CollisionBar viewers={presence.viewers} typists={presence.typists} />
      <div className="ib-view-body">
        <div className="ib-view-main">
          <MessageThread enquiry={row} userId={user.id} />
          <ReplyArea
            key={row.id}
            enquiry={row}
            user={user}
            composerRef={composer}
            actions={composerActions}
          />
        </div>
        {aside && wide && panelOpen && (
          <aside className="ib-customer-panel" aria-label="Customer">
            {aside(row)}
          </aside>
        )}
      </div>
      {aside && !wide && (
        <Drawer
          title="Customer"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size="min(360px, 100vw)"
          destroyOnHidden
        >
          {drawerOpen && aside(row)}
        </Drawer>
      )}
    </section>
  );
}
