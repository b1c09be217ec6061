import { formMessages } from '@switchboard/shared';
import { ConfigProvider, theme } from 'antd';
import { lazy, type ReactNode, Suspense, useLayoutEffect } from 'react';
import { useResolvedTheme } from '@/features/theme/hooks/use-resolved-theme.ts';
import { appTheme, brandFill } from './theme.ts';

// Notices are only needed once something has happened, so their code loads beside the first page rather
// than before it; anything raised earlier waits in the notifier's queue.
const NoticeBridge = lazy(() => import('./notice-bridge.tsx'));

/**
 * Publishes the theme's colours as CSS variables for the few plain elements styled in CSS (the login
 * page), and paints the page behind the app, before the browser paints, so dark mode never flashes white.
 */
function DocumentTheme({ dark }: { dark: boolean }) {
  const { token } = theme.useToken();
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.style.colorScheme = dark ? 'dark' : 'light';
    root.dataset.theme = dark ? 'dark' : 'light';
    const vars: Record<string, string> = {
      '--sb-primary': token.colorPrimary,
      '--sb-primary-text': token.colorPrimaryText,
      '--sb-link': token.colorLink,
      '--sb-primary-fill': brandFill(dark, token.colorPrimary),
      '--sb-bg-layout': token.colorBgLayout,
      '--sb-bg-container': token.colorBgContainer,
      '--sb-text': token.colorText,
      '--sb-text-secondary': token.colorTextSecondary,
      '--sb-border': token.colorBorderSecondary,
      '--sb-shadow': token.boxShadowTertiary,
      '--sb-error-bg': token.colorErrorBg,
      '--sb-error-border': token.colorErrorBorder,
      '--sb-radius': `${token.borderRadiusLG}px`,
      '--sb-font': token.fontFamily,
    };
    for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
  }, [dark, token]);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const dark = useResolvedTheme() === 'dark';
  return (
    <ConfigProvider theme={appTheme(dark)} form={{ validateMessages: formMessages }}>
      <DocumentTheme dark={dark} />
      <Suspense fallback={null}>
        <NoticeBridge />
      </Suspense>
      {children}
    </ConfigProvider>
  );
}
