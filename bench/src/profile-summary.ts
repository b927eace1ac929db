import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile (`node --cpu-prof`) the summary reads. */
type TCpuProfile = {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }>;
  samples?: number[];
  timeDeltas?: number[];
};

/** Where a frame's code lives: a package (by its node_modules path), our code, Node itself, or V8's own entries. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? '?');
  }
  if (/\/(packages|apps|bench)\//.test(url)) return 'our code';
  return '(other)';
}

/** The groups the lead asked for: several packages count as one (pg-protocol is pg; every @mikro-orm/* is mikro-orm). */
function familyOf(pkg: string): string {
  if (pkg.startsWith('@mikro-orm/')) return 'mikro-orm';
  if (/^pg(-.+)?$/.test(pkg) || pkg === 'postgres-array' || pkg === 'postgres-date') return 'pg';
  if (
    pkg === 'pino' ||
    pkg.startsWith('pino-') ||
    pkg === 'sonic-boom' ||
    pkg === 'fast-redact' ||
    pkg === 'thread-stream'
  )
    return 'pino';
  if (
    [
      'express',
      'router',
      'body-parser',
      'send',
      'finalhandler',
      'path-to-regexp',
      'qs',
      'serve-static',
      'on-finished',
      'type-is',
      'content-type',
      'mime-types',
      'accepts',
      'negotiator',
      'debug',
    ].includes(pkg)
  )
    return 'express';
  if (pkg.startsWith('@trpc/') || pkg === 'trpc-to-openapi') return 'trpc';
  return pkg;
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/.*\/(packages|apps|bench)\//, '$1/');

/** Self time per function and per package family of one profile, idle time left out of the percentages. */
export function summariseProfile(profile: TCpuProfile, top = 15): string {
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  if (samples.length > 0) {
    // timeDeltas[i] is the time before sample i: charge it to the sample that ends it, the usual approximation.
    samples.forEach((id, index) =>
      selfMs.set(id, (selfMs.get(id) ?? 0) + (deltas[index + 1] ?? deltas[index] ?? 0) / 1000),
    );
  } else {
    for (const node of profile.nodes) selfMs.set(node.id, node.hitCount ?? 0);
  }
  const byFunction = new Map<string, number>();
  const byFamily = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += ms;
      continue;
    }
    total += ms;
    const name = `${functionName || '(anonymous)'}${url ? ` ${shortUrl(url)}:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    const family = familyOf(packageOf(url, functionName));
    byFamily.set(family, (byFamily.get(family) ?? 0) + ms);
  }
  const percent = (ms: number) => `${((ms / Math.max(total, 1e-9)) * 100).toFixed(1).padStart(5)} %`;
  const rank = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  const lines = [
    `  busy ${(total / 1000).toFixed(1)} s, idle ${(idle / 1000).toFixed(1)} s`,
    `  top ${top} functions by self time:`,
  ];
  for (const [name, ms] of rank(byFunction).slice(0, top)) lines.push(`    ${percent(ms)}  ${name}`);
  lines.push('  self time by package:');
  for (const [name, ms] of rank(byFamily).filter(([, ms]) => ms / total >= 0.002))
    lines.push(`    ${percent(ms)}  ${name}`);
  return lines.join('\n');
}

/** The newest .cpuprofile in a folder (what `--cpu-prof --cpu-prof-dir` wrote when the process ended). */
export function newestProfile(folder: string): string | undefined {
  const files = readdirSync(folder).filter((name) => name.endsWith('.cpuprofile'));
  return files.map((name) => join(folder, name)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

// `pnpm --filter @careers/bench exec node src/profile-summary.ts FILE.cpuprofile [TOP]`: summarise a profile by hand.
if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: profile-summary.ts FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  console.log(summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as TCpuProfile, Number(process.argv[3] ?? 15)));
}
