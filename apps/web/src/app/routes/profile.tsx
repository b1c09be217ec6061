import { useQueryClient } from '@tanstack/react-query';
import { Flex, Segmented, Tag, Typography } from 'antd';
import { PageHeader } from '@/components/page-header.tsx';
import { Panel } from '@/components/panel.tsx';
import { MobileStep } from '@/features/auth/components/mobile-step.tsx';
import { DeskPhonePanel } from '@/features/profile/components/desk-phone-panel.tsx';
import {
  PasswordChange,
  ProfileDetails,
  ReplyPreferences,
} from '@/features/profile/components/profile-panel.tsx';
import { type ThemeMode, useThemeStore } from '@/features/theme/stores/theme-store.ts';
import { phoneText } from '@/lib/phones.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function ProfileRoute() {
  const { me, location } = useAppSelection();
  const queryClient = useQueryClient();
  const mode = useThemeStore((s) => s.mode);
  const setMode = useThemeStore((s) => s.setMode);
  return (
    <>
      <PageHeader
        title="My profile"
        subtitle="How your team and customers see you, your password and your theme."
      />
      <Flex vertical gap={24}>
        <ProfileDetails me={me} />
        <ReplyPreferences me={me} />
        <PasswordChange />
        <Panel title="Mobile">
          {me.mobile_verified ? (
            <Typography.Text>
              {phoneText(me.mobile)} is confirmed as your mobile. <Tag color="green">confirmed</Tag>
            </Typography.Text>
          ) : (
            <div style={{ maxWidth: 420 }}>
              <Typography.Paragraph type="secondary">
                Confirm your mobile with a code we text you, so Switchboard can reach you about your account.
              </Typography.Paragraph>
              <MobileStep
                initialMobile={me.mobile ?? ''}
                onDone={() => void queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me })}
                canSkip={false}
              />
            </div>
          )}
        </Panel>
        {location && (
          <DeskPhonePanel locationId={location.id} locationName={location.name ?? 'this location'} />
        )}
        <Panel title="Theme">
          <Segmented
            aria-label="Theme"
            value={mode}
            onChange={(value) => setMode(value as ThemeMode)}
            options={[
              { value: 'light', label: 'Light' },
              { value: 'dark', label: 'Dark' },
              { value: 'system', label: 'System' },
            ]}
          />
        </Panel>
      </Flex>
    </>
  );
}
