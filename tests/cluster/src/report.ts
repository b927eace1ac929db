/** Figures of a scenario (requests, failures …): printed when CLUSTER_REPORT=1; test runs stay quiet otherwise. */
export function reportFigures(scenario: string, figures: Record<string, unknown>): void {
  if (process.env.CLUSTER_REPORT === '1') console.info(`cluster ${scenario}: ${JSON.stringify(figures)}`);
}
