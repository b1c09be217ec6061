import { PhoneOutlined } from '@ant-design/icons';
import { ERROR_NOTICE_MAX, ERROR_NOTICE_SECONDS, NOTICE_SECONDS } from '@switchboard/shared';
import { Button, message, notification } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { useEffect } from 'react';
import { debugCode } from '@/lib/debug-session.ts';
import { type ErrorNotice, feedbackUrl, type GenericNotice } from '@/lib/error-catalogue.ts';
import { navigateTo } from '@/lib/navigation.ts';
import { setNoticeSink } from '@/lib/notifier.ts';

/**
 * A customer back, a teammate's mention or news at another location: long enough to be noticed, short enough
 * not to sit over the work (mentions also stay in the inbox's Mentions, so nothing is lost when it goes).
 */
const ATTENTION_NOTICE_SECONDS = 8;

function sendFeedback(notice: GenericNotice): void {
  // A full reload, as the spec says: the report then starts from a clean page that still names the error.
  window.location.assign(feedbackUrl(window.location, notice.code, debugCode()));
}

function showError(api: NotificationInstance, notice: ErrorNotice): void {
  switch (notice.kind) {
    case 'session-expired':
      api.warning({ title: notice.title });
      return;
    case 'server-message':
      api.error({ title: notice.title });
      return;
    case 'generic':
      api.error({
        title: notice.title,
        placement: 'bottomRight',
        description: (
          <>
            <p style={{ margin: '0 0 4px' }}>{notice.description}</p>
            <p style={{ margin: 0, opacity: 0.65 }}>{notice.errorCode}</p>
          </>
        ),
        actions: (
          <Button type="primary" size="small" onClick={() => sendFeedback(notice)}>
            Send Feedback
          </Button>
        ),
      });
      return;
    default: {
      const unknown: never = notice;
      throw new Error(`Unknown notice ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Draws the notices the API client and the query handler raise: errors one at a time for 5 s
 * (spec §8), other notices for 4.5 s (spec §9).
 */
export default function NoticeBridge() {
  const [notificationApi, notificationHolder] = notification.useNotification({
    maxCount: ERROR_NOTICE_MAX,
    duration: ERROR_NOTICE_SECONDS,
  });
  const [messageApi, messageHolder] = message.useMessage({ duration: NOTICE_SECONDS, maxCount: 3 });
  // Calls ringing have their own stack: several may ring at once, and an error never pushes one away.
  const [callApi, callHolder] = notification.useNotification({ maxCount: 5, placement: 'topRight' });

  useEffect(() => {
    setNoticeSink({
      error: (notice) => showError(notificationApi, notice),
      success: (text) => void messageApi.success(text),
      info: (text) => void messageApi.info(text),
      attention: ({ title, body, href, action }) => {
        const key = `attention:${href}`;
        notificationApi.info({
          key,
          title,
          description: body,
          duration: ATTENTION_NOTICE_SECONDS,
          // Bottom left: the conversation's own actions (Assign, Close) are at the top right, and the composer's
          // Send at the bottom right.
          placement: 'bottomLeft',
          closable: true,
          actions: (
            <Button
              type="primary"
              size="small"
              onClick={() => {
                notificationApi.destroy(key);
                navigateTo(href);
              }}
            >
              {action}
            </Button>
          ),
        });
      },
      ringing: ({ key, title, body, href, action }) => {
        callApi.open({
          key,
          title,
          description: body,
          duration: 0,
          icon: <PhoneOutlined style={{ color: 'var(--ant-color-primary, #1E75FF)' }} />,
          role: 'alert',
          actions: (
            <Button
              type="primary"
              size="small"
              onClick={() => {
                callApi.destroy(key);
                navigateTo(href);
              }}
            >
              {action}
            </Button>
          ),
        });
      },
      callEnded: (key) => callApi.destroy(key),
    });
    return () => setNoticeSink(null);
  }, [notificationApi, messageApi, callApi]);

  return (
    <>
      {notificationHolder}
      {messageHolder}
      {callHolder}
    </>
  );
}
