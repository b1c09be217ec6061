#!/usr/bin/env bash
# `npm run screenshots`: builds the app like the browser tests do and takes the screens for a person to look
# at (light and dark) into .tmp/screens/. Not part of `npm test`.
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
npx playwright test -c e2e/screenshots.config.ts "$@"
echo "Screens are in .tmp/screens/"
