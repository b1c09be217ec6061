import { ExportOutlined } from '@ant-design/icons';
import type { WidgetSettings } from '@switchboard/shared';
import { Flex, Typography } from 'antd';

/** The line a business pastes into its website, and the chat page on its own to try it. */
export function WidgetSnippet({ settings }: { settings: WidgetSettings }) {
  return (
    <Flex vertical gap={8}>
      <Typography.Paragraph style={{ margin: 0 }}>
        Paste this line into every page of your website, just before{' '}
        <Typography.Text code>{'</body>'}</Typography.Text>. The chat bubble appears in the bottom right
        corner, and chats arrive in the inbox for this location.
      </Typography.Paragraph>
      <Typography.Paragraph
        copyable={{ text: settings.snippet, tooltips: ['Copy snippet', 'Copied'] }}
        data-testid="widget-snippet"
        style={{
          margin: 0,
          padding: '12px 16px',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
          fontSize: 13,
          wordBreak: 'break-all',
          background: 'rgba(127, 127, 127, 0.08)',
          borderRadius: 8,
        }}
      >
        {settings.snippet}
      </Typography.Paragraph>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Website builders (WordPress, Squarespace, Wix, Shopify) take it as a custom code or footer script. To
        try the chat without a website, open the{' '}
        <Typography.Link href={settings.chat_url} target="_blank" rel="noopener">
          chat page <ExportOutlined />
        </Typography.Link>
        .
      </Typography.Text>
    </Flex>
  );
}
