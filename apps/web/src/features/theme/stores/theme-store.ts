import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type ThemeMode = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

type ThemeState = { mode: ThemeMode; setMode: (mode: ThemeMode) => void };

/** The person's theme choice, remembered in this browser. */
export const useThemeStore = create<ThemeState>()(
  persist(
    (set) => ({
      mode: 'system',
      setMode: (mode) => set({ mode }),
    }),
    { name: 'switchboard.theme', storage: createJSONStorage(() => localStorage), version: 1 },
  ),
);
