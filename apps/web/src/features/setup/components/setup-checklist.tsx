import { CheckCircleFilled } from '@ant-design/icons';
import type { SetupChecklistJson, SetupItemKey } from '@switchboard/shared';
import { Button, Flex, Progress, Typography, theme } from 'antd';
import { type MouseEvent, type ReactNode, useId } from 'react';
import { useNavigate } from 'react-router';
import { SETUP_TEXTS, setupProgress, testMessageLine } from '../utils/items.ts';
import './setup-checklist.css';

type Item = SetupChecklistJson['items'][number];

type Props = {
  setup: SetupChecklistJson;
  /** Owners (and administrators) get buttons to the screens; staff are told to ask the owner. */
  canManage: boolean;
  /** The screen that does an item, at the location it names. */
  hrefOf: (key: SetupItemKey, locationId: string | null) => string;
  /** The code to paste into the website, shown with the chat item until a chat arrives from the site. */
  chatSnippet?: (locationId: string) => ReactNode;
  /** The simulator's page, offered with a sandbox number's test text. */
  sandboxHref?: string;
  title?: string;
  /** What the owner can do with the list itself (put it away), under the items. */
  footer?: ReactNode;
};

/** A button that is a link to another screen of the app, opened without reloading the page. */
function ScreenButton({ to, children, primary }: { to: string; children: ReactNode; primary: boolean }) {
  const navigate = useNavigate();
  const open = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <Button href={to} onClick={open} type={primary ? 'primary' : 'default'}>
      {children}
    </Button>
  );
}

function ItemExtra({
  item,
  setup,
  canManage,
  chatSnippet,
  sandboxHref,
}: { item: Item } & Pick<Props, 'setup' | 'canManage' | 'chatSnippet' | 'sandboxHref'>) {
  if (item.key === 'number' && setup.number) {
    return (
      <div className="setup-try">
        <Typography.Text strong>{testMessageLine(setup.number)}</Typography.Text>
        {setup.number.sandbox && canManage && sandboxHref && (
          <div>
            <ScreenButton to={sandboxHref} primary={false}>
              Open the sandbox phone
            </ScreenButton>
          </div>
        )}
      </div>
    );
  }
  if (item.key === 'chat' && !item.done && canManage && chatSnippet && item.location_id) {
    return <div className="setup-snippet">{chatSnippet(item.location_id)}</div>;
  }
  return null;
}

/**
 * The steps that get a new business answering customers, each ticked from the business's own data, with a
 * line on what it will see once done and a button to the screen that does it.
 */
export function SetupChecklist({
  setup,
  canManage,
  hrefOf,
  chatSnippet,
  sandboxHref,
  title = 'Get ready for your first customers',
  footer,
}: Props) {
  const { token } = theme.useToken();
  const headingId = useId();
  const progress = setupProgress(setup);
  // The first step still to do is the one to take next.
  const next = setup.items.find((i) => !i.done)?.key;
  return (
    <section className="setup-list" aria-labelledby={headingId}>
      <div className="setup-head">
        <h2 id={headingId}>{title}</h2>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Each step ticks itself once it is done.
        </Typography.Paragraph>
        <Flex align="center" gap={12} className="setup-progress">
          <Progress
            percent={progress.total ? Math.round((progress.done / progress.total) * 100) : 0}
            showInfo={false}
            aria-label="Set-up progress"
            style={{ margin: 0, flex: 1 }}
          />
          <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
            {progress.text}
          </Typography.Text>
        </Flex>
      </div>
      <ol className="setup-items">
        {setup.items.map((item, index) => {
          const texts = SETUP_TEXTS[item.key];
          return (
            <li key={item.key} className="setup-item" data-done={item.done}>
              <span
                className="setup-mark"
                role="img"
                aria-label={item.done ? 'Done' : 'To do'}
                style={item.done ? { color: token.colorSuccess } : { borderColor: token.colorBorder }}
              >
                {item.done ? <CheckCircleFilled /> : index + 1}
              </span>
              <div className="setup-body">
                <h3>{texts.title}</h3>
                <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                  {texts.outcome}
                </Typography.Paragraph>
                <ItemExtra
                  item={item}
                  setup={setup}
                  canManage={canManage}
                  chatSnippet={chatSnippet}
                  sandboxHref={sandboxHref}
                />
                {!item.done &&
                  (canManage ? (
                    <div>
                      <ScreenButton to={hrefOf(item.key, item.location_id)} primary={item.key === next}>
                        {texts.action}
                      </ScreenButton>
                    </div>
                  ) : (
                    <Typography.Text type="secondary" italic>
                      {texts.askOwner}
                    </Typography.Text>
                  ))}
              </div>
            </li>
          );
        })}
      </ol>
      {footer}
    </section>
  );
}
