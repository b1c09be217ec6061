import { PhoneOutlined } from '@ant-design/icons';
import type { SipLogin } from '@switchboard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Flex, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { api, type Envelope } from '@/lib/api-client.ts';
import { readCookie } from '@/lib/cookies.ts';
import { failureText } from '@/lib/failure-text.ts';

type SipStatus = {
  location_id: string;
  has_credentials: boolean;
  server: string | null;
  username: string | null;
  last_call_at: string | null;
};

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Opens the password the server sealed for this browser with the person's key and iv (cookies from login). */
async function openPassword(sealed: { ciphertext: string; nonce: string }): Promise<string> {
  const key = readCookie('key');
  const iv = readCookie('iv');
  if (!key || !iv) throw new Error('This browser has no key to open the password: log out and in again.');
  const cryptoKey = await crypto.subtle.importKey('raw', fromHex(key), 'AES-GCM', false, ['decrypt']);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(sealed.nonce), additionalData: new TextEncoder().encode(iv) },
    cryptoKey,
    fromBase64(sealed.ciphertext),
  );
  return new TextDecoder().decode(plain);
}

/** Where a desk phone signs in, each value ready to copy, and one more line. */
function LoginDetails({
  server,
  username,
  more,
}: {
  server: string | null;
  username: string | null;
  more: { key: string; label: string; children: ReactNode };
}) {
  return (
    <Descriptions
      size="small"
      column={1}
      items={[
        { key: 'server', label: 'Server', children: <Typography.Text copyable>{server}</Typography.Text> },
        { key: 'user', label: 'Username', children: <Typography.Text copyable>{username}</Typography.Text> },
        more,
      ]}
    />
  );
}

/**
 * My profile → Desk phone: the login a SIP desk phone signs in with at the selected location. The password
 * shows once, when the login is made or given a new password; copy it into the phone then.
 */
export function DeskPhonePanel({ locationId, locationName }: { locationId: string; locationName: string }) {
  const queryClient = useQueryClient();
  const statusKey = ['sip-status', locationId];
  const status = useQuery({
    queryKey: statusKey,
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Envelope<SipStatus>>('/user/me/sip-status', {
        params: { location_id: locationId },
        signal,
        silent: true,
      });
      return data.body;
    },
  });
  const [shown, setShown] = useState<{ server: string; username: string; password: string } | null>(null);
  const make = useMutation({
    mutationFn: async (reset: boolean) => {
      const { data } = await api.post<Envelope<SipLogin>>(
        '/user/sip',
        { location_id: locationId, reset },
        { handledStatuses: [422, 502, 503] },
      );
      const login = data.body;
      return {
        server: login.server,
        username: login.username,
        password: login.password ? await openPassword(login.password) : null,
      };
    },
    onSuccess: (login) => {
      if (login.password)
        setShown({ server: login.server, username: login.username, password: login.password });
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
  const login = status.data;
  return (
    <Panel title="Desk phone">
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          A SIP desk phone signed in with this login rings with your browser for {locationName}'s calls, and
          calls customers as {locationName}.
        </Typography.Paragraph>
        {status.isError && <Alert type="error" showIcon title={failureText(status.error)} />}
        {login?.has_credentials && (
          <LoginDetails
            server={login.server}
            username={login.username}
            more={{
              key: 'used',
              label: 'Last call',
              children: login.last_call_at ? new Date(login.last_call_at).toLocaleString() : 'None yet',
            }}
          />
        )}
        {shown && (
          <Alert
            type="warning"
            showIcon
            title="Copy the password into your desk phone now: it is not shown again."
            description={
              <LoginDetails
                server={shown.server}
                username={shown.username}
                more={{
                  key: 'password',
                  label: 'Password',
                  children: (
                    <Typography.Text code copyable aria-label="Desk phone password">
                      {shown.password}
                    </Typography.Text>
                  ),
                }}
              />
            }
          />
        )}
        {make.isError && (
          <Typography.Text type="danger" role="alert">
            {failureText(make.error)}
          </Typography.Text>
        )}
        <Flex gap={8} wrap>
          <Button
            icon={<PhoneOutlined />}
            loading={make.isPending}
            disabled={status.isPending}
            onClick={() => make.mutate(Boolean(login?.has_credentials))}
          >
            {login?.has_credentials ? 'New password' : 'Create desk phone login'}
          </Button>
        </Flex>
      </Flex>
    </Panel>
  );
}
