/**
 * The web app's weight before first paint (DESIGN §10): the login page ≤ 200 KB and the inbox ≤ 350 KB of
 * gzipped JS, measured from the last build's manifest by apps/web's `size` script. Builds apps/web when it
 * is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext, Section, SummaryRow } from '../lib/context.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const MANIFEST = join(ROOT, 'apps/web/dist/.vite/manifest.json');

type Row = {
  screen: string;
  bytes: number;
  after_paint_bytes: number;
  files: number;
  budget_kb: number | null;
};

export async function runWebSize(ctx: Pick<BenchContext, 'log'>): Promise<SummaryRow[]> {
  if (!existsSync(MANIFEST)) {
    ctx.log('Building apps/web…');
    const build = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('The web build failed.');
  }
  const measured = spawnSync('node', ['apps/web/scripts/bundle-size.mjs', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const rows = JSON.parse(measured.stdout.trim().split('\n').at(-1) ?? '[]') as Row[];
  ctx.log('\n## Web app size (gzipped JS before first paint)');
  for (const r of rows) {
    ctx.log(
      `${r.screen.padEnd(18)} ${(r.bytes / 1024).toFixed(1).padStart(7)} KB in ${r.files} files` +
        (r.budget_kb ? ` (budget ${r.budget_kb} KB)` : '') +
        `; +${(r.after_paint_bytes / 1024).toFixed(1)} KB just after`,
    );
  }
  return rows
    .filter((r) => r.budget_kb !== null)
    .map((r) => ({
      section: 'web-size',
      engine: null,
      what: `${r.screen} JS before first paint, gzipped`,
      result: `${(r.bytes / 1024).toFixed(1)} KB`,
      budget: `≤ ${r.budget_kb} KB`,
      verdict: r.bytes <= (r.budget_kb ?? 0) * 1024 ? 'PASS' : 'OVER',
    }));
}

export const webSizeSection: Section = { name: 'web-size', run: runWebSize };
