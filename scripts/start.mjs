#!/usr/bin/env node
// `npm start`: builds the web app and the website widget when their sources are newer than their last build,
// then runs the server (embedded database in ./data unless DATABASE_URL is set). A second start skips the builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const builds = [
  {
    name: 'the web app',
    workspace: 'apps/web',
    dist: 'apps/web/dist/index.html',
    sources: ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src'],
  },
  {
    name: 'the website widget',
    workspace: 'apps/widget',
    dist: 'apps/widget/dist/widget.js',
    sources: [
      'apps/widget/src',
      'apps/widget/index.html',
      'apps/widget/vite.config.ts',
      'apps/widget/vite.loader.config.ts',
    ],
  },
];

for (const b of builds) {
  const dist = join(root, b.dist);
  const sources = b.sources
    .map((p) => join(root, p))
    .filter(existsSync)
    .map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs));
  const stale = !existsSync(dist) || Math.max(...sources) > statSync(dist).mtimeMs;
  if (!stale) continue;
  console.log(`Building ${b.name}…`);
  const build = spawnSync('npm', ['run', 'build', '-w', b.workspace], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(server.status ?? 0);
