import { MoreOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { type ReactNode, useState } from 'react';

/**
 * The conversation's actions: in a row beside the name where there is room; on a phone, behind one button, so
 * the header stays one line and the conversation keeps the height.
 */
export function HeaderActions({ compact, children }: { compact: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  if (!compact) return <div className="ib-view-actions">{children}</div>;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      arrow={false}
      content={
        <div className="ib-view-actions ib-view-actions-menu" role="group" aria-label="Conversation actions">
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
