/**
 * The website widget's weight: the loader every customer site downloads (`/widget.js`, budget 40 KB
 * gzipped) and, for information, the chat frame loaded on first open. Builds apps/widget when it is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchContext, Section, SummaryRow } from '../lib/context.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const DIST = join(ROOT, 'apps/widget/dist');
const LOADER_BUDGET_BYTES = 40 * 1024;

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** Gzipped sizes in bytes: the loader, and the frame page with its assets. */
export function widgetSizes(dist = DIST): { loader: number; loaderRaw: number; frame: number } {
  const loaderFile = join(dist, 'widget.js');
  const assets = join(dist, 'assets');
  const frameFiles = [
    join(dist, 'index.html'),
    ...(existsSync(assets) ? readdirSync(assets).map((f) => join(assets, f)) : []),
  ];
  return {
    loader: gz(loaderFile),
    loaderRaw: readFileSync(loaderFile).length,
    frame: frameFiles.reduce((sum, f) => sum + gz(f), 0),
  };
}

export async function runWidgetSize(ctx: Pick<BenchContext, 'log'>): Promise<SummaryRow[]> {
  if (!existsSync(join(DIST, 'widget.js'))) {
    ctx.log('Building apps/widget…');
    const build = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/widget'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('The widget build failed.');
  }
  const s = widgetSizes();
  ctx.log('\n## Website widget size');
  ctx.log(
    `/widget.js (loader): ${kb(s.loaderRaw)} raw, ${kb(s.loader)} gzipped (budget ${kb(LOADER_BUDGET_BYTES)})`,
  );
  ctx.log(`/widget chat frame (html + assets, loaded on first open): ${kb(s.frame)} gzipped`);
  return [
    {
      section: 'widget-size',
      engine: null,
      what: 'widget.js loader, gzipped',
      result: kb(s.loader),
      budget: `≤ ${kb(LOADER_BUDGET_BYTES)}`,
      verdict: s.loader <= LOADER_BUDGET_BYTES ? 'PASS' : 'OVER',
    },
  ];
}

export const widgetSizeSection: Section = { name: 'widget-size', run: runWidgetSize };
