import { StarOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Tooltip } from 'antd';
import { notify } from '@/lib/notifier.ts';
import { useRequestReviews } from '../api.ts';

/**
 * The composer's Review button: asks the conversation's customer for a review with the location's message and
 * tracked link. What stops it (no review link yet, asked recently) is said by the server's notice.
 */
export default function ReviewButton({
  enquiry,
}: {
  enquiry: { id: string; customer: { name: string | null } };
}) {
  const ask = useRequestReviews();
  const who = enquiry.customer.name ?? 'this customer';
  return (
    <Popconfirm
      title={`Ask ${who} for a review?`}
      description="They get your location's review message with a link to leave a review."
      okText="Send"
      okButtonProps={{ loading: ask.isPending }}
      onConfirm={async () => {
        try {
          await ask.mutateAsync({ enquiry_id: enquiry.id });
          notify.success(`Review request sent to ${who}.`);
        } catch {
          // The API client has said why it was not sent.
        }
      }}
    >
      <Tooltip title="Ask for a review">
        <Button type="text" icon={<StarOutlined />} aria-label="Ask for a review">
          <span className="ib-bar-label">Review</span>
        </Button>
      </Tooltip>
    </Popconfirm>
  );
}
