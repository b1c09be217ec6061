import { Modal, Typography } from 'antd';

export const SHORTCUTS: [string, string][] = [
  ['j', 'Next conversation'],
  ['k', 'Previous conversation'],
  ['/', 'Search'],
  ['r', 'Reply (to the open conversation)'],
  ['a', 'Assign the open conversation to me'],
  ['e', 'Close the open conversation'],
  ['c', 'Open the phone (on every page)'],
  ['?', 'Show these shortcuts'],
];

/** The "?" overlay: every inbox shortcut. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" open={open} onCancel={onClose} footer={null}>
      <dl className="ib-shortcuts">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <Typography.Text keyboard>{key}</Typography.Text>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Ctrl+Enter (⌘+Enter on a Mac) sends a reply; My profile can make Enter send.
      </Typography.Paragraph>
    </Modal>
  );
}
