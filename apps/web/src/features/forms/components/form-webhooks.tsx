import { ReloadOutlined } from '@ant-design/icons';
import { UNKNOWN_LOCATION } from '@switchboard/shared';
import { Button, Flex, Popconfirm, Typography } from 'antd';
import { Panel } from '@/components/panel.tsx';
import { notify } from '@/lib/notifier.ts';
import { useFormWebhook } from '../api/get-form-webhook.ts';
import { useRotateFormWebhook } from '../api/rotate-form-webhook.ts';
import { type FormKind, formToken } from '../types.ts';

type Props = { locations: readonly { id: string; name: string | null }[] };

const KINDS: readonly { kind: FormKind; title: string; use: string }[] = [
  {
    kind: 'web-form',
    title: 'Website form webhook',
    use: "Point your own website's form at this address (its action, or a script's POST). Each submission opens a Web Form enquiry.",
  },
  {
    kind: 'contact-form',
    title: 'Contact form webhook',
    use: 'Used by the hosted contact page below; submissions open Contact Form enquiries.',
  },
];

/** A plain HTML form a website can paste in; `_gotcha` is the honeypot people never see and bots fill. */
export function formSnippet(url: string, locationId?: string): string {
  const location = locationId ? `\n  <input type="hidden" name="location_id" value="${locationId}">` : '';
  return `<form action="${url}" method="POST">
  <label>Name <input name="name" autocomplete="name"></label>
  <label>Email <input name="email" type="email" autocomplete="email"></label>
  <label>Phone <input name="phone" type="tel" autocomplete="tel"></label>
  <label>Message <textarea name="message" required></textarea></label>${location}
  <!-- Honeypot: hidden from people, bots fill it and their submission is dropped. -->
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="display:none">
  <button type="submit">Send</button>
</form>`;
}

function WebhookRow({ kind, title, use }: (typeof KINDS)[number]) {
  const webhook = useFormWebhook(kind);
  const rotate = useRotateFormWebhook();
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text strong>{title}</Typography.Text>
        <Popconfirm
          title={`Rotate the ${title.toLowerCase()}?`}
          description="A new address is made and the old one stops working at once. Update every form that posts to it."
          okText="Rotate"
          okButtonProps={{ danger: true, loading: rotate.isPending }}
          onConfirm={() =>
            rotate
              .mutateAsync(kind)
              .then(() => notify.success('New address made; the old one no longer works'))
          }
        >
          <Button icon={<ReloadOutlined />} aria-label={`Rotate ${title.toLowerCase()}`}>
            Rotate
          </Button>
        </Popconfirm>
      </Flex>
      {webhook.data ? (
        <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
          {webhook.data.url}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{webhook.isError ? 'Not available' : 'Loading…'}</Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {use}
      </Typography.Text>
    </Flex>
  );
}

function HostedLinks({ locations }: Props) {
  const webhook = useFormWebhook('contact-form');
  if (!webhook.data) return null;
  const token = formToken(webhook.data.url);
  return (
    <Flex vertical gap={8}>
      <Typography.Text strong>Hosted contact page</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        A ready-made contact form to link from your website, email signature or social profiles — one per
        location, so enquiries land in the right inbox.
      </Typography.Text>
      {locations.map((l) => {
        const href = `${window.location.origin}/contact?to=${encodeURIComponent(token)}&location=${l.id}`;
        return (
          <Flex key={l.id} gap={8} wrap align="baseline">
            <Typography.Text type="secondary" style={{ minWidth: 180 }}>
              {l.name ?? UNKNOWN_LOCATION}
            </Typography.Text>
            <Typography.Link
              href={href}
              target="_blank"
              copyable={{ text: href }}
              style={{ wordBreak: 'break-all' }}
            >
              {href}
            </Typography.Link>
          </Flex>
        );
      })}
    </Flex>
  );
}

function Snippet({ locationId }: { locationId?: string }) {
  const webhook = useFormWebhook('web-form');
  if (!webhook.data) return null;
  const snippet = formSnippet(webhook.data.url, locationId);
  return (
    <Flex vertical gap={4}>
      <Typography.Text strong>Example: a form on your website</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Fields name, email, phone and message are recognised (give an email or a phone so you can reply); any
        other field is kept with the message. Leave <code>_gotcha</code> empty and hidden: it catches bots.
      </Typography.Text>
      <Typography.Paragraph copyable={{ text: snippet }} style={{ margin: 0 }}>
        <pre style={{ margin: 0, whiteSpace: 'pre-wrap', fontSize: 12 }}>{snippet}</pre>
      </Typography.Paragraph>
    </Flex>
  );
}

/** The business's form addresses (owner only: the server answers 403 to anyone else). */
export function FormWebhooks({ locations }: Props) {
  return (
    <Panel title="Website forms">
      <Flex vertical gap={24}>
        {KINDS.map((k) => (
          <WebhookRow key={k.kind} {...k} />
        ))}
        <HostedLinks locations={locations} />
        <Snippet />
      </Flex>
    </Panel>
  );
}
