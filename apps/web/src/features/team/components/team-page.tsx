import type { MemberDto } from '@switchboard/shared';
import { Alert, Button, Card, Flex, Form, Input, List, Popconfirm, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import { useInvitations, useInvite, useMembers, useRemoveMember, useWithdrawInvitation } from '../api.ts';

type InviteValues = { email: string; full_name?: string; role: 'owner' | 'staff' };

const day = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long' }).format(new Date(iso));

/** Settings → Team: who is in the business; owners invite people by email and remove them. */
export function TeamPage({
  canManage,
  meId,
  ownerId,
}: {
  canManage: boolean;
  meId: string;
  ownerId: string | null;
}) {
  const members = useMembers();
  const invitations = useInvitations(canManage);
  const invite = useInvite();
  const withdraw = useWithdrawInvitation();
  const remove = useRemoveMember();
  const [form] = Form.useForm<InviteValues>();
  const [inviteError, setInviteError] = useState<string | null>(null);

  return (
    <Flex vertical gap={24}>
      {canManage && (
        <Card title="Invite someone">
          <Form<InviteValues>
            form={form}
            layout="vertical"
            initialValues={{ role: 'staff' }}
            onFinish={async (values) => {
              setInviteError(null);
              try {
                const sent = await invite.mutateAsync(values);
                notify.success(`Invitation sent to ${sent.email}.`);
                form.resetFields();
              } catch (e) {
                setInviteError(failureText(e));
              }
            }}
          >
            {inviteError && (
              <Alert type="error" showIcon title={inviteError} role="alert" style={{ marginBottom: 16 }} />
            )}
            <div className="team-invite">
              <Form.Item label="Email" name="email" rules={[{ required: true }, { type: 'email' }]}>
                <Input inputMode="email" autoComplete="off" maxLength={320} />
              </Form.Item>
              <Form.Item label="Name (optional)" name="full_name">
                <Input maxLength={200} />
              </Form.Item>
              <Form.Item label="Role" name="role">
                <Select
                  options={[
                    { value: 'staff', label: 'Team member' },
                    { value: 'owner', label: 'Owner' },
                  ]}
                />
              </Form.Item>
            </div>
            <Button type="primary" htmlType="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Form>
        </Card>
      )}
      {canManage && (invitations.data?.length ?? 0) > 0 && (
        <Card title="Waiting to join">
          <List
            dataSource={invitations.data}
            renderItem={(inv) => (
              <List.Item
                actions={[
                  <Button
                    key="withdraw"
                    size="small"
                    danger
                    loading={withdraw.isPending}
                    onClick={() => withdraw.mutate(inv.id)}
                  >
                    Withdraw
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={inv.full_name ? `${inv.full_name} · ${inv.email}` : inv.email}
                  description={`${inv.role === 'owner' ? 'Owner' : 'Team member'} · invited by ${inv.invited_by ?? 'an owner'} · link works until ${day(inv.expires_at)}`}
                />
              </List.Item>
            )}
          />
        </Card>
      )}
      <Card title="Team">
        {members.isError && <Alert type="error" showIcon title={failureText(members.error)} />}
        <List<MemberDto>
          loading={members.isPending}
          dataSource={members.data ?? []}
          renderItem={(m) => (
            <List.Item
              actions={
                canManage && m.user_id !== ownerId && m.user_id !== meId
                  ? [
                      <Popconfirm
                        key="remove"
                        title={`Remove ${m.full_name || m.email}?`}
                        description="They are signed out at once and can no longer open this business."
                        okText="Remove"
                        okButtonProps={{ danger: true, loading: remove.isPending }}
                        onConfirm={async () => {
                          try {
                            await remove.mutateAsync(m.user_id);
                            notify.success(`${m.full_name || m.email} was removed from the team.`);
                          } catch {
                            // The catalogue's notice says why.
                          }
                        }}
                      >
                        <Button size="small" danger>
                          Remove
                        </Button>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={
                  <span>
                    {m.full_name || m.email}{' '}
                    {m.user_id === ownerId ? (
                      <Tag color="blue">Business owner</Tag>
                    ) : m.role === 'owner' ? (
                      <Tag>Owner</Tag>
                    ) : null}
                  </span>
                }
                description={<Typography.Text type="secondary">{m.email}</Typography.Text>}
              />
            </List.Item>
          )}
        />
      </Card>
    </Flex>
  );
}
