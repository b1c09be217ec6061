import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The rule "a feature never imports another feature" is one noRestrictedImports override per feature folder
 * in biome.json. These probes are linted with that biome.json in a scratch copy of the folder layout (never
 * in the working tree, so nobody else's lint or build sees them): one file per feature importing another
 * feature, which must be refused, and one importing only its own folder and shared code, which must not.
 * A new feature folder without its override fails here.
 */

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const biome = join(repo, 'node_modules/@biomejs/biome/bin/biome');

type Diagnostic = { category: string; severity: string; message: string; location: { path: string } };

const features = (await readdir(join(repo, 'apps/web/src/features'), { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const probes = features.flatMap((feature, i) => {
  const other = features[(i + 1) % features.length];
  const at = (name: string) => `apps/web/src/features/${feature}/components/${name}`;
  return [
    {
      feature,
      kind: 'alias',
      path: at('probe-alias.ts'),
      code: `import { x } from '@/features/${other}/api/x.ts';\nexport const probe = x;\n`,
    },
    {
      feature,
      kind: 'relative',
      path: at('probe-relative.ts'),
      code: `import { x } from '../../${other}/api/x.ts';\nexport const probe = x;\n`,
    },
    {
      feature,
      kind: 'own',
      path: at('probe-own.ts'),
      code: [
        `import { a } from '@/features/${feature}/api/a.ts';`,
        `import { b } from '../api/b.ts';`,
        `import { c } from '@/lib/c.ts';`,
        `import { d } from '../../../lib/d.ts';`,
        'export const probe = [a, b, c, d];',
        '',
      ].join('\n'),
    },
  ];
});

let scratch = '';
let restricted: Diagnostic[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'feature-boundaries-'));
  await copyFile(join(repo, 'biome.json'), join(scratch, 'biome.json'));
  for (const probe of probes) {
    await mkdir(dirname(join(scratch, probe.path)), { recursive: true });
    await writeFile(join(scratch, probe.path), probe.code);
  }
  // Biome exits non-zero when it finds errors, which is the point here: read its report either way.
  const report = await run(
    process.execPath,
    [biome, 'lint', '--reporter=json', '--max-diagnostics=none', 'apps/web/src/features'],
    { cwd: scratch },
  ).catch((error: { stdout: string }) => error);
  const diagnostics = (JSON.parse(report.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  restricted = diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports');
}, 30_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function refusalsIn(path: string): Diagnostic[] {
  return restricted.filter((d) => d.location.path === path);
}

describe('a web feature never imports another feature (biome.json)', () => {
  it('finds the feature folders to probe', () => {
    expect(features).toContain('inbox');
    expect(features.length).toBeGreaterThan(5);
  });

  it.each(probes.filter((p) => p.kind !== 'own'))(
    'refuses features/$feature importing another feature ($kind path)',
    ({ path }) => {
      const refusals = refusalsIn(path);
      expect(
        refusals,
        `${path} was not refused: does its feature have an override in biome.json?`,
      ).toHaveLength(1);
      expect(refusals[0]?.severity).toBe('error');
      expect(refusals[0]?.message).toContain('A feature never imports another feature');
    },
  );

  it.each(probes.filter((p) => p.kind === 'own'))(
    'lets features/$feature import its own folder and shared code',
    ({ path }) => {
      expect(refusalsIn(path)).toEqual([]);
    },
  );
});
