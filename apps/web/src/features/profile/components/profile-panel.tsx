import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import type { UserMe } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Avatar, Button, Flex, Form, Input, Popconfirm, Switch, Typography } from 'antd';
import { useRef, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { api, type Envelope } from '@/lib/api-client.ts';
import { setAccessToken } from '@/lib/cookies.ts';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors, useFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { reconnectSocket } from '@/lib/socket.ts';
import { useUpdateMe } from '@/lib/update-me.ts';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

function useSaveMe() {
  const queryClient = useQueryClient();
  return (me: UserMe) => queryClient.setQueryData(sharedQueryKeys.me, me);
}

/** The signed-in person's name and picture (shown on their replies and to website visitors). */
export function ProfileDetails({ me }: { me: UserMe }) {
  const save = useSaveMe();
  const input = useRef<HTMLInputElement>(null);
  const [form] = Form.useForm<{ full_name: string }>();
  const rename = useUpdateMe({ onSaved: () => notify.success('Name saved') });
  const picture = useMutation({
    mutationFn: async (file: File | null) => {
      if (!file) return (await api.delete<Envelope<UserMe>>('/user/me/avatar')).data.body;
      const body = new FormData();
      body.append('image', file, file.name);
      return (await api.put<Envelope<UserMe>>('/user/me/avatar', body, { handledStatuses: [413, 415] })).data
        .body;
    },
    onSuccess: (next) => save(next),
  });
  const [problem, setProblem] = useState<string | null>(null);

  return (
    <Panel title="Your details">
      <Flex vertical gap={20}>
        <Flex align="center" gap={16} wrap>
          <Avatar size={72} src={me.avatar ?? undefined} alt={me.full_name || me.email}>
            {(me.full_name || me.email).charAt(0).toUpperCase()}
          </Avatar>
          <Flex gap={8} wrap>
            <input
              ref={input}
              type="file"
              accept={ACCEPTED.join(',')}
              hidden
              aria-label="Choose a picture"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (!file) return;
                if (!ACCEPTED.includes(file.type))
                  return setProblem('Choose a PNG, JPEG, WebP or GIF picture.');
                setProblem(null);
                picture.mutate(file, { onSuccess: () => notify.success('Picture updated') });
              }}
            />
            <Button
              icon={<UploadOutlined />}
              loading={picture.isPending}
              onClick={() => input.current?.click()}
            >
              {me.avatar ? 'Change picture' : 'Add a picture'}
            </Button>
            {me.avatar && (
              <Popconfirm
                title="Remove your picture?"
                okText="Remove"
                onConfirm={() => picture.mutateAsync(null)}
              >
                <Button icon={<DeleteOutlined />}>Remove</Button>
              </Popconfirm>
            )}
          </Flex>
        </Flex>
        {(problem || picture.isError) && (
          <Alert type="error" showIcon title={problem ?? failureText(picture.error)} />
        )}
        <Form
          form={form}
          layout="vertical"
          initialValues={{ full_name: me.full_name }}
          onFinish={(v) =>
            rename.mutate(
              { full_name: v.full_name.trim() },
              { onError: (e) => void showFieldErrors(form, e) },
            )
          }
          style={{ maxWidth: 420 }}
        >
          <Form.Item
            label="Name"
            name="full_name"
            rules={[{ required: true, whitespace: true, message: 'Enter your name.' }, { max: 200 }]}
          >
            <Input autoComplete="name" />
          </Form.Item>
          <Typography.Paragraph type="secondary">Email: {me.email}</Typography.Paragraph>
          <Button type="primary" htmlType="submit" loading={rename.isPending}>
            Save name
          </Button>
        </Form>
      </Flex>
    </Panel>
  );
}

/**
 * A new password: every other session of this person ends at once; this browser carries on with a fresh
 * token (and its live connection reconnects with it).
 */
export function PasswordChange() {
  const [form] = Form.useForm<{ current_password: string; new_password: string; confirm: string }>();
  const fieldErrors = useFieldErrors(form);
  const change = useMutation({
    mutationFn: async (input: { current_password: string; new_password: string }) =>
      (await api.put<Envelope<{ token: string }>>('/user/password', input, { handledStatuses: [422] })).data
        .body,
    onSuccess: ({ token }) => {
      setAccessToken(token);
      reconnectSocket();
      form.resetFields();
      notify.success('Password changed. You were signed out everywhere else.');
    },
    onError: fieldErrors.onError,
  });
  return (
    <Panel title="Password">
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={(v) =>
          change.mutate({ current_password: v.current_password, new_password: v.new_password })
        }
      >
        <Form.Item
          label="Current password"
          name="current_password"
          rules={[{ required: true, message: 'Enter your current password.' }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="New password"
          name="new_password"
          rules={[
            { required: true, message: 'Choose a new password.' },
            { min: 8, message: 'Use at least 8 characters.' },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="New password again"
          name="confirm"
          dependencies={['new_password']}
          rules={[
            { required: true, message: 'Type the new password again.' },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('new_password')
                  ? Promise.resolve()
                  : Promise.reject(new Error('The two new passwords differ.')),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        {change.isError && fieldErrors.unplaced(change.error) && (
          <Alert type="error" showIcon title={failureText(change.error)} style={{ marginBottom: 16 }} />
        )}
        <Typography.Paragraph type="secondary">
          Changing it signs you out on every other device.
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          Change password
        </Button>
      </Form>
    </Panel>
  );
}

/** How replying works for this person: Enter to send, and taking an unassigned enquiry by replying. */
export function ReplyPreferences({ me }: { me: UserMe }) {
  const update = useUpdateMe({ onSaved: () => notify.success('Preference saved') });
  return (
    <Panel title="Replying">
      <Flex vertical gap={12}>
        <Flex gap={12} align="center">
          <Switch
            aria-label="Enter sends the reply"
            checked={me.send_on_enter}
            loading={update.isPending && update.variables?.send_on_enter !== undefined}
            onChange={(send_on_enter) => update.mutate({ send_on_enter })}
          />
          <span>
            Enter sends the reply (Shift+Enter for a new line). Off: Ctrl+Enter (⌘+Enter on a Mac) sends.
          </span>
        </Flex>
        <Flex gap={12} align="center">
          <Switch
            aria-label="Replying assigns the enquiry to me"
            checked={me.assign_on_reply}
            loading={update.isPending && update.variables?.assign_on_reply !== undefined}
            onChange={(assign_on_reply) => update.mutate({ assign_on_reply })}
          />
          <span>Replying to an unassigned enquiry assigns it to me.</span>
        </Flex>
      </Flex>
    </Panel>
  );
}
