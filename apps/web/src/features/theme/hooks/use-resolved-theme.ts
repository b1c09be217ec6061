import { useSyncExternalStore } from 'react';
import { type ResolvedTheme, useThemeStore } from '../stores/theme-store.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const prefersDark = () => window.matchMedia(DARK_QUERY).matches;

/** 'system' follows the operating system's dark preference live, without a reload. */
export function useResolvedTheme(): ResolvedTheme {
  const mode = useThemeStore((s) => s.mode);
  const systemDark = useSyncExternalStore(subscribe, prefersDark, () => false);
  if (mode === 'system') return systemDark ? 'dark' : 'light';
  return mode;
}
