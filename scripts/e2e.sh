#!/usr/bin/env bash
# Browser tests: installs Debian's Chromium when missing (never a downloaded browser), builds the web app and the widget,
# and runs the Playwright specs against the real server on a loopback port.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Chromium (Debian package chromium)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
npm run -s build -w apps/web
npm run -s build -w apps/widget
npx playwright test -c e2e/playwright.config.ts "$@"
