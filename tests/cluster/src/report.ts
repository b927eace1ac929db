import type { TUnit } from './units.ts';

/** Figures of a scenario (requests, failures …): printed when CLUSTER_REPORT=1; test runs stay quiet otherwise. */
export function reportFigures(scenario: string, figures: Record<string, unknown>): void {
  if (process.env.CLUSTER_REPORT === '1') console.info(`cluster ${scenario}: ${JSON.stringify(figures)}`);
}

/** The distinct error causes the API processes logged (what failed requests met), for the figures. */
export function apiErrors(apis: TUnit[]): string[] {
  const causes = apis.flatMap((api) => api.output().match(/"(code|message)":"[^"]{0,120}"/g) ?? []);
  return [...new Set(causes)].slice(0, 12);
}

/** The API processes' error log lines (pino level 50), the last few, cut short: which statement a failed request met. */
export function apiErrorLines(apis: TUnit[]): string[] {
  const lines = apis.flatMap((api) =>
    api
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":50')),
  );
  return lines.slice(-5).map((line) => line.slice(0, 1_500));
}
