import { NotificationOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useMentions } from '../api/get-mentions.ts';

/** Opens the Mentions view; its badge counts the mentions not yet opened. Icon-only, in the list's title row (the views' row is full on a phone). */
export function MentionsButton({
  userId,
  active,
  onToggle,
}: {
  userId: string;
  active: boolean;
  onToggle: () => void;
}) {
  const unread = useMentions(userId).data?.unread ?? 0;
  const label = unread ? `Mentions (${unread} unread)` : 'Mentions';
  return (
    <Tooltip title="Where teammates mentioned you">
      <Badge count={unread} size="small" offset={[-4, 4]}>
        <Button
          type={active ? 'primary' : 'text'}
          icon={<NotificationOutlined />}
          aria-pressed={active}
          aria-label={label}
          onClick={onToggle}
        />
      </Badge>
    </Tooltip>
  );
}
