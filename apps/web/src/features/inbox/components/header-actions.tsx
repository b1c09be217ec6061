import { MoreOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { type MouseEvent, type ReactNode, useState } from 'react';

/**
 * The conversation's actions: in a row beside the name where there is room; on a phone, behind one button, so
 * the header stays one line and the conversation keeps the height.
 */
export function HeaderActions({ compact, children }: { compact: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // An action taken closes the menu (it would stay over a drawer or the thread); one that opens its own
  // menu or panel (assign to, labels, snooze) keeps it, as their popups hang from it.
  const closeAfterAction = (e: MouseEvent) => {
    const button = (e.target as Element).closest('button');
    if (button && !button.matches('.ant-dropdown-trigger, [aria-haspopup]')) setOpen(false);
  };
  if (!compact) return <div className="ib-view-actions">{children}</div>;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      arrow={false}
      content={
        // biome-ignore lint/a11y/useKeyWithClickEvents: it hears its buttons' clicks; they take the keys.
        <div
          className="ib-view-actions ib-view-actions-menu"
          role="toolbar"
          aria-label="Conversation actions"
          onClick={closeAfterAction}
        >
          {children}
        </div>
      }
    >
      <Button
        type="text"
        className="ib-view-more"
        icon={<MoreOutlined />}
        aria-label="Conversation actions"
      />
    </Popover>
  );
}
