import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/** `npm run screenshots`: the screens for a person to look at, on the same server setup as the browser tests. */
export default defineConfig({ ...base, testDir: './screenshots' });
