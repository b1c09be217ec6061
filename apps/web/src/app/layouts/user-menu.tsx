import {
  CheckOutlined,
  DesktopOutlined,
  DownOutlined,
  LogoutOutlined,
  MoonOutlined,
  QuestionCircleOutlined,
  SunOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps, Typography, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLogout } from '@/features/auth/api/logout.ts';
import type { CurrentSelection } from '@/features/auth/utils/selection.ts';
import { type ThemeMode, useThemeStore } from '@/features/theme/stores/theme-store.ts';
import { LOGIN_PATH, paths } from '../paths.ts';

const ShortcutsHelp = lazy(() =>
  import('@/features/inbox/components/shortcuts-help.tsx').then((m) => ({ default: m.ShortcutsHelp })),
);

const THEMES: { mode: ThemeMode; label: string; icon: React.ReactNode }[] = [
  { mode: 'light', label: 'Light', icon: <SunOutlined /> },
  { mode: 'dark', label: 'Dark', icon: <MoonOutlined /> },
  { mode: 'system', label: 'System', icon: <DesktopOutlined /> },
];

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

export function UserMenu({ selection }: { selection: CurrentSelection }) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const mode = useThemeStore((s) => s.mode);
  const setMode = useThemeStore((s) => s.setMode);
  // "?" opens the shortcuts in the inbox; the menu says so, and opens them from any page.
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const logout = useLogout({ onLoggedOut: () => navigate(LOGIN_PATH, { replace: true }) });
  const { me, isOwner } = selection;
  const name = me.full_name || me.email;

  const items: MenuProps['items'] = [
    {
      key: 'who',
      type: 'group',
      label: (
        <div style={{ lineHeight: 1.4, paddingBottom: 4 }}>
          <Typography.Text strong style={{ display: 'block' }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {me.email}
          </Typography.Text>
        </div>
      ),
    },
    { type: 'divider' },
    {
      key: 'theme',
      type: 'group',
      label: 'Theme',
      children: THEMES.map((t) => ({
        key: `theme:${t.mode}`,
        icon: t.icon,
        label: (
          <span style={{ display: 'flex', justifyContent: 'space-between', gap: 24 }}>
            {t.label}
            {mode === t.mode && (
              <CheckOutlined aria-label="chosen" style={{ color: token.colorPrimaryText }} />
            )}
          </span>
        ),
        onClick: () => setMode(t.mode),
      })),
    },
    { type: 'divider' },
    { key: 'profile', icon: <UserOutlined />, label: 'My profile', onClick: () => navigate(paths.profile) },
    {
      key: 'shortcuts',
      icon: <QuestionCircleOutlined />,
      label: 'Keyboard shortcuts',
      extra: <Typography.Text keyboard>?</Typography.Text>,
      onClick: () => setShortcutsOpen(true),
    },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: 'Log out',
      onClick: () => logout.mutate(),
      danger: true,
    },
  ];

  return (
    <>
      <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
        <Button type="text" aria-label={`Account menu for ${name}`} style={{ height: 48, paddingInline: 8 }}>
          <Avatar size={32} aria-hidden style={{ background: 'var(--sb-primary-fill)', flexShrink: 0 }}>
            {initials(name)}
          </Avatar>
          <span className="user-menu-name">
            <Typography.Text strong style={{ fontSize: 13 }}>
              {name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {selection.me.super_admin ? 'Administrator' : isOwner ? 'Owner' : 'Staff'}
            </Typography.Text>
          </span>
          <DownOutlined style={{ fontSize: 10, color: token.colorTextTertiary }} />
        </Button>
      </Dropdown>
      {shortcutsOpen && (
        <Suspense fallback={null}>
          <ShortcutsHelp open onClose={() => setShortcutsOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
