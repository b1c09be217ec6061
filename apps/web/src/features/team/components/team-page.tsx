import type { MemberDto } from '@switchboard/shared';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Select,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { isApiError } from '@/lib/api-error.ts';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import {
  useInvitations,
  useInvite,
  useMemberLocations,
  useMembers,
  useRemoveMember,
  useResendConfirmation,
  useWithdrawInvitation,
} from '../api.ts';

type InviteValues = { email: string; full_name?: string; role: 'owner' | 'staff'; location_ids?: string[] };
type Place = { id: string; name: string | null };

const placeName = (l: Place) => l.name || 'A location without a name';

/** Where a member works, as the team list says it. */
function worksAt(m: MemberDto, locations: Place[]): string {
  if (m.all_locations) return 'All locations';
  const names = locations.filter((l) => m.location_ids.includes(l.id)).map(placeName);
  return names.length ? names.join(', ') : 'No location yet';
}

/** The locations picker: none chosen means every location, including ones added later. */
function LocationPicker({
  locations,
  value,
  onChange,
  id,
}: {
  locations: Place[];
  value?: string[];
  onChange?: (ids: string[]) => void;
  id?: string;
}) {
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      placeholder="All locations"
      options={locations.map((l) => ({ value: l.id, label: placeName(l) }))}
      optionFilterProp="label"
      style={{ width: '100%' }}
    />
  );
}

/**
 * Why an invitation was not sent. Until the business's email is confirmed nothing goes out to anyone, so that
 * refusal comes with the way to confirm it: a new link to the owner's address.
 */
function InviteRefusal({ error }: { error: unknown }) {
  const resend = useResendConfirmation();
  const unconfirmed = isApiError(error) && error.code === 'email_not_verified';
  let done: string | null = null;
  if (resend.data)
    done = resend.data.already_verified
      ? 'Your email is confirmed now: send the invitation again.'
      : `Sent: open the link we emailed to ${resend.data.email ?? 'your address'}, then send the invitation again.`;
  // The button sits under the words, not beside them: beside, a phone's width leaves the words no room.
  const next = (
    <Flex vertical gap={8} align="flex-start">
      {resend.isError && <span>{failureText(resend.error)}</span>}
      <Button size="small" loading={resend.isPending} onClick={() => resend.mutate()}>
        Send a new confirmation link
      </Button>
    </Flex>
  );
  return (
    <Alert
      type={unconfirmed ? 'warning' : 'error'}
      showIcon
      role="alert"
      style={{ marginBottom: 16 }}
      title={failureText(error)}
      description={unconfirmed ? (done ?? next) : undefined}
    />
  );
}

/** Owners choose the locations a team member works at. */
function LocationsDialog({
  member,
  locations,
  onClose,
}: {
  member: MemberDto;
  locations: Place[];
  onClose: () => void;
}) {
  const save = useMemberLocations();
  const [chosen, setChosen] = useState<string[]>(member.all_locations ? [] : member.location_ids);
  const [error, setError] = useState<string | null>(null);
  const who = member.full_name || member.email;
  return (
    <Modal
      open
      title={`Where ${who} works`}
      okText="Save"
      confirmLoading={save.isPending}
      onCancel={onClose}
      onOk={async () => {
        setError(null);
        try {
          await save.mutateAsync({ userId: member.user_id, location_ids: chosen.length ? chosen : null });
          notify.success(
            chosen.length
              ? `${who} now works at ${chosen.length === 1 ? 'one location' : `${chosen.length} locations`}.`
              : `${who} now works at every location.`,
          );
          onClose();
        } catch (e) {
          setError(failureText(e));
        }
      }}
    >
      <Flex vertical gap={12}>
        {error && <Alert type="error" showIcon title={error} role="alert" />}
        <Typography.Text type="secondary">
          They see the enquiries, calls and settings of these locations only. Leave it empty for every
          location, including ones you add later.
        </Typography.Text>
        <label htmlFor="member-locations">Locations</label>
        <LocationPicker id="member-locations" locations={locations} value={chosen} onChange={setChosen} />
      </Flex>
    </Modal>
  );
}

/**
 * Settings → Team: who is in the business and where they work; owners invite people by email, choose their
 * locations and remove them.
 */
export function TeamPage({
  canManage,
  meId,
  ownerId,
  locations,
}: {
  canManage: boolean;
  meId: string;
  ownerId: string | null;
  locations: Place[];
}) {
  const members = useMembers();
  const invitations = useInvitations(canManage);
  const invite = useInvite();
  const withdraw = useWithdrawInvitation();
  const remove = useRemoveMember();
  const [form] = Form.useForm<InviteValues>();
  const [inviteError, setInviteError] = useState<unknown>(null);
  const [placing, setPlacing] = useState<MemberDto | null>(null);
  const role = Form.useWatch('role', form);
  const several = locations.length > 1;

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
                const { location_ids, ...rest } = values;
                const sent = await invite.mutateAsync({
                  ...rest,
                  location_ids: rest.role === 'staff' && location_ids?.length ? location_ids : null,
                });
                notify.success(`Invitation sent to ${sent.email}.`);
                form.resetFields();
              } catch (e) {
                if (!showFieldErrors(form, e)) setInviteError(e);
              }
            }}
          >
            {inviteError ? <InviteRefusal error={inviteError} /> : null}
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
            {several && role !== 'owner' && (
              <Form.Item
                label="Works at"
                name="location_ids"
                extra="Leave empty for every location. Owners always work at every location."
              >
                <LocationPicker locations={locations} />
              </Form.Item>
            )}
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
                  description={`${inv.role === 'owner' ? 'Owner' : 'Team member'}${several && inv.location_names ? ` at ${inv.location_names.join(', ')}` : ''} · invited by ${inv.invited_by ?? 'an owner'} · link works until ${dayText(inv.expires_at)}`}
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
                      ...(several && m.role === 'staff'
                        ? [
                            <Button key="locations" size="small" onClick={() => setPlacing(m)}>
                              Locations
                            </Button>,
                          ]
                        : []),
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
                description={
                  <Typography.Text type="secondary">
                    {m.email}
                    {several && m.user_id !== ownerId ? ` · ${worksAt(m, locations)}` : ''}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      </Card>
      {placing && <LocationsDialog member={placing} locations={locations} onClose={() => setPlacing(null)} />}
    </Flex>
  );
}
