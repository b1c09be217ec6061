import { resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { INBOUND_SMTP_PORT, MAIL_SINK_PORT } from './fixtures/mail.ts';
import { PLATFORM_TWILIO } from './fixtures/twilio.ts';

/** E2E_PORT_OFFSET moves every port below, so that two runs on one machine do not meet (default 0). */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const PORT = 3100 + OFFSET;
export const FAKE_TWILIO_PORT = 3198 + OFFSET;
export const FAKE_GRAPH_PORT = 3197 + OFFSET;
/** A business's own booking API, which the assistant's tool calls in the assistant spec. */
export const FAKE_TOOL_PORT = 3196 + OFFSET;
/** A browser push service (Web Push), played by a fake server that the notifications spec starts. */
export const FAKE_PUSH_PORT = 3194 + OFFSET;
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${PORT}`;
const repoRoot = resolve(import.meta.dirname, '..');
// One id per run, shared with the worker processes (they inherit the environment), so that runs started
// side by side neither share a database nor clear each other's results.
process.env.E2E_RUN_ID ??= String(Date.now());
const runId = process.env.E2E_RUN_ID;
// A fresh data dir per run: the server migrates and seeds the demo businesses on its first start.
const dataDir = resolve(repoRoot, '.tmp', `e2e-data-${runId}`);

export default defineConfig({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  outputDir: resolve(repoRoot, '.tmp', `e2e-results-${runId}`),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous: the suite shares two cores with the server (PGlite) and the browser.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 860 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Calls: a fake microphone (a beeping tone) and camera, allowed without asking.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
  // Runs the built app (npm run build -w apps/web first) on the real server, unless E2E_BASE_URL points
  // at one already running.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'node --import tsx apps/server/src/server.ts',
        cwd: repoRoot,
        url: `${baseURL}/api/v1/health`,
        env: {
          PORT: String(PORT),
          DATA_DIR: dataDir,
          // The same suite on PostgreSQL: an empty database, which the server migrates and seeds on start.
          ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
          LOG_LEVEL: 'warn',
          // An answer carrying a field its route's contract does not name fails, so the browser would see it.
          STRICT_ANSWERS: 'true',
          // Every spec logs in from the same loopback address; the per-IP login limit is for the internet.
          LOGIN_MAX_PER_IP: '1000',
          // Inbound email on this run's own port (moved by E2E_PORT_OFFSET), where the email spec delivers.
          SMTP_PORT: String(INBOUND_SMTP_PORT),
          // The server's own email (sign-up links, sign-in help) goes to the run's mail sink (global setup).
          SMTP_URL: `smtp://127.0.0.1:${MAIL_SINK_PORT}`,
          // The sign-up form's bot check waits 3 s in production; a test fills the form faster than a person.
          SIGNUP_MIN_SECONDS: '1',
          // Twilio's API, played by a fake server that the Twilio spec starts on this port.
          TWILIO_API_BASE: `http://127.0.0.1:${FAKE_TWILIO_PORT}`,
          // The platform account owners buy numbers through, at the same fake (the buy-number spec plays it).
          TWILIO_PLATFORM_ACCOUNT_SID: PLATFORM_TWILIO.sid,
          TWILIO_PLATFORM_AUTH_TOKEN: PLATFORM_TWILIO.auth_token,
          // Meta's Graph API (WhatsApp), played by a fake server that the WhatsApp spec starts on this port.
          GRAPH_API_BASE: `http://127.0.0.1:${FAKE_GRAPH_PORT}/v24.0`,
          // The assistant may call (and read) this loopback server, which the assistant spec starts: in
          // production a tool or website at a private address is refused.
          AI_FETCH_ALLOW_ORIGINS: `http://127.0.0.1:${FAKE_TOOL_PORT}`,
          // Pushes may go to this loopback push service: in production a push endpoint at a private address is
          // refused.
          PUSH_ALLOW_ORIGINS: `http://127.0.0.1:${FAKE_PUSH_PORT}`,
          // A website chat visitor counts as gone (replies by SMS) 3 s after closing the chat, not 5 minutes.
          WIDGET_SMS_AFTER_MINUTES: '0.05',
        },
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
