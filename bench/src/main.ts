import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startBenchEnvironment } from './harness.ts';
import type { TBenchOptions, TScenario, TScenarioResult } from './scenario.ts';
import { applicationsScenario } from './applications.ts';
import { workerScenario } from './worker.ts';
import { readsScenario } from './reads.ts';
import { resumesScenario } from './resumes.ts';
import { comparisonScenario, comparisonScenarios } from './compare.ts';
import { importScenario } from './import.ts';
import { scaleScenario } from './scale.ts';
import { searchQualityScenario } from './search-quality.ts';
import { qUnseenScenario } from './q-unseen.ts';

/** Every benchmark by name. A new scenario is one file and one line here. */
const scenarios: Record<string, TScenario> = {
  reads: readsScenario,
  applications: applicationsScenario,
  worker: workerScenario,
  resumes: resumesScenario,
  ...comparisonScenarios,
  import: importScenario,
  scale: scaleScenario,
  'search-quality': searchQualityScenario,
  'q-unseen': qUnseenScenario,
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
    json: { type: 'string' },
    worst: { type: 'string', default: '40' },
    list: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    vacancies: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'own-reference': { type: 'boolean', default: false },
    rounds: { type: 'string' },
    files: { type: 'string' },
    tuned: { type: 'boolean', default: false },
  },
});

if (values.list) {
  for (const [name, scenario] of Object.entries(scenarios)) console.log(`${name.padEnd(20)} ${scenario.description}`);
  process.exit(0);
}

// Without a name: the ratio table against the reference (issue #12).
const names = positionals.length > 0 ? positionals : ['compare'];
const unknown = names.filter((name) => !scenarios[name]);
if (unknown.length > 0) {
  console.error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
const options: TBenchOptions = {
  durationSeconds: Number(values.duration ?? (values.quick ? 5 : 20)),
  connections: Number(values.connections),
  worst: Number(values.worst),
  quick: values.quick,
  vacancies: values.vacancies === undefined ? undefined : Number(values.vacancies),
  profile: values.profile,
  ownReference: values['own-reference'],
  rounds: values.rounds === undefined ? undefined : Number(values.rounds),
  files: values.files === 'ocr' || values.files === 'text' ? values.files : undefined,
  tunedOnly: values.tuned,
};
if (values.files !== undefined && options.files === undefined) {
  console.error(`--files is ocr or text, not ${values.files}`);
  process.exit(2);
}

// Several of the reference's scenarios named together share one environment (one load of the data), as `compare` does.
const compared = names.filter((name) => name !== 'compare' && name in comparisonScenarios);
const runs: Array<[string, TScenario]> = names
  .filter((name) => compared.length < 2 || !compared.includes(name) || name === compared[0])
  .map((name) =>
    compared.length > 1 && name === compared[0]
      ? [compared.join(', '), comparisonScenario(compared)]
      : [name, scenarios[name]!],
  );

const results: TScenarioResult[] = [];
for (const [name, scenario] of runs) {
  if ('report' in scenario) {
    console.log(`\n▶ ${name}: ${scenario.description}`);
    await scenario.report(options);
    continue;
  }
  console.log(
    `\n▶ ${name}: ${scenario.description} (${options.durationSeconds} s, ${options.connections} connections)`,
  );
  const environment = await startBenchEnvironment(scenario.document(options));
  try {
    const outcome = await scenario.run(environment, options);
    if (Array.isArray(outcome)) {
      results.push(...outcome);
      continue;
    }
    const result = outcome;
    results.push(result);
    console.log(
      `  ${result.requestsPerSecond} req/s · p50 ${result.latencyP50Ms} ms · p99 ${result.latencyP99Ms} ms · peak RSS ${result.peakRssMb} MB` +
        ` · statuses ${JSON.stringify(result.statuses)} · errors ${result.errors}${result.notes ? `\n  ${result.notes}` : ''}`,
    );
  } finally {
    await environment.stop();
  }
}

if (results.length > 0) {
  console.log('\nscenario             req/s      p50 ms   p99 ms   peak RSS MB');
  for (const r of results) {
    console.log(
      `${r.scenario.padEnd(20)} ${String(r.requestsPerSecond).padStart(8)} ${String(r.latencyP50Ms).padStart(8)} ${String(r.latencyP99Ms).padStart(8)} ${String(r.peakRssMb).padStart(12)}`,
    );
  }
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
