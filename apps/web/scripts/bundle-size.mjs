#!/usr/bin/env node
// Gzipped JS each screen downloads before its first paint (DESIGN §10: login ≤ 200 KB, inbox ≤ 350 KB),
// from the Vite manifest of the last build: the entry, the route's lazy chunks, and every static import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const SCREENS = {
  login: ['src/app/routes/login.tsx'],
  inbox: ['src/app/signed-in-routes.tsx', 'src/app/routes/inbox.tsx'],
  locations: ['src/app/signed-in-routes.tsx', 'src/app/routes/locations.tsx'],
  'business profile': ['src/app/signed-in-routes.tsx', 'src/app/routes/business-settings.tsx'],
  'phones & emails': ['src/app/signed-in-routes.tsx', 'src/app/routes/contacts.tsx'],
  customers: ['src/app/signed-in-routes.tsx', 'src/app/routes/customers.tsx'],
};
// `--json`: one JSON line of { screen, bytes, budget_kb } for the benchmark to read.
const asJson = process.argv.includes('--json');
const rows = [];
// DESIGN §10 budgets the login page and the inbox; the other screens are listed for comparison.
const BUDGETS = { login: 200, inbox: 350 };

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
// Loaded just after the first paint by every screen: the HTTP client (axios) and the notice layer.
const AFTER_PAINT = Object.keys(manifest).filter(
  (k) => k.includes('node_modules/axios/') || k.endsWith('src/app/notice-bridge.tsx'),
);

function collect(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) collect(dep, files);
  return files;
}

const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
let failed = false;
for (const [screen, routes] of Object.entries(SCREENS)) {
  const files = collect(entry);
  for (const route of routes) collect(route, files);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const total = js.reduce((sum, f) => sum + gz(f), 0);
  const later = new Set(files);
  for (const key of AFTER_PAINT) collect(key, later);
  const afterPaint = [...later]
    .filter((f) => f.endsWith('.js') && !files.has(f))
    .reduce((sum, f) => sum + gz(f), 0);
  const budget = BUDGETS[screen];
  const kb = (total / 1024).toFixed(1);
  const ok = budget === undefined || total <= budget * 1024;
  failed ||= !ok;
  const verdict = budget === undefined ? '(no budget)' : `(budget ${budget} KB) ${ok ? 'ok' : 'OVER'}`;
  rows.push({
    screen,
    bytes: total,
    after_paint_bytes: afterPaint,
    files: js.length,
    budget_kb: budget ?? null,
  });
  if (!asJson)
    console.log(
      `${screen.padEnd(18)} ${kb.padStart(7)} KB gzipped before first paint in ${js.length} files ${verdict}; ` +
        `+${(afterPaint / 1024).toFixed(1)} KB just after (axios, notices)`,
    );
}
if (asJson) console.log(JSON.stringify(rows));
process.exit(failed ? 1 : 0);
