import { TagsOutlined } from '@ant-design/icons';
import { Button, Checkbox, Empty, Flex, Popover, Tag, Tooltip } from 'antd';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useLabels } from '@/lib/labels.ts';
import type { EnquiryRow } from '../types.ts';

/** Put the business's labels on an enquiry or take them off; owners are pointed to where labels are made. */
export function LabelPicker({
  enquiry,
  saving,
  canManage,
  onChange,
}: {
  enquiry: EnquiryRow;
  /** The labels being saved right now: the boxes show what was ticked, not the last saved state. */
  saving?: string[];
  canManage: boolean;
  onChange: (labels: string[]) => void;
}) {
  const labels = useLabels();
  const current = saving ?? enquiry.labels;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // Opened (by mouse or keyboard), the focus goes to the first label, so the keyboard carries on inside.
  useEffect(() => {
    if (!open) return;
    const frame = requestAnimationFrame(() =>
      box.current?.querySelector<HTMLElement>('input:not([disabled]), a[href]')?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, [open]);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  const content = (
    <Flex
      ref={box}
      vertical
      gap={6}
      style={{ minWidth: 200 }}
      role="group"
      aria-label="Labels"
      onKeyDown={closeOnEscape}
    >
      {labels.isPending ? (
        'Loading…'
      ) : labels.isError ? (
        'Labels could not be loaded.'
      ) : labels.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No labels yet" />
      ) : (
        labels.data.map((l) => (
          <Checkbox
            key={l.id}
            checked={current.includes(l.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...current, l.id] : current.filter((id) => id !== l.id))
            }
          >
            <Tag color={l.colour}>{l.name}</Tag>
          </Checkbox>
        ))
      )}
      {canManage && (
        // Underlined: beside the labels' words, colour alone would not mark it as a link.
        <Link to="/settings/labels" style={{ textDecoration: 'underline' }}>
          Manage labels
        </Link>
      )}
    </Flex>
  );
  return (
    <Popover
      trigger="click"
      title="Labels"
      content={content}
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      // Inside the header, right after its button: Tab goes from the button into the labels, not to the page's end.
      getPopupContainer={(node) => node.parentElement ?? document.body}
    >
      <Tooltip title="Labels">
        <Button
          ref={button}
          icon={<TagsOutlined />}
          aria-label="Labels"
          aria-haspopup="dialog"
          aria-expanded={open}
        />
      </Tooltip>
    </Popover>
  );
}
