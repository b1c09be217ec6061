import type { PostgresServer } from './postgres.ts';

export type Engine = 'postgres' | 'pglite';
export const ENGINE_LABEL: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

/** One line of the run's closing summary. */
export type SummaryRow = {
  section: string;
  engine: Engine | null;
  what: string;
  /** The measured figure the budget is about, formatted. */
  result: string;
  budget: string;
  verdict: 'PASS' | 'OVER' | '—';
};

/** What every section gets from the runner. */
export type BenchContext = {
  engines: Engine[];
  scale: number;
  /** Recorded iterations per case (after warm-up), and the time after which a case stops early. */
  iterations: number;
  warmup: number;
  caseSeconds: number;
  /** Optional experiments named in BENCH_EXPERIMENT (comma separated), e.g. "indexes". */
  experiments: Set<string>;
  log(line?: string): void;
  /** The benchmark's own PostgreSQL server: started on first call, stopped when the run ends. */
  postgres(): Promise<PostgresServer>;
  /** Registers clean-up that runs when the run ends, also on error or a signal (last registered first). */
  defer(cleanup: () => Promise<void> | void): void;
};

export type Section = {
  name: string;
  run(ctx: BenchContext): Promise<SummaryRow[]>;
};
