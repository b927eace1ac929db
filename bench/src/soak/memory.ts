/** A memory sample in MB at `t` seconds into the soak (heap figures only where a /metrics endpoint answered). */
export type TMemorySample = {
  t: number;
  apiRss: number;
  workerRss: number;
  apiHeap?: number | undefined;
  workerHeap?: number | undefined;
};
export type TMemoryField = 'apiRss' | 'workerRss' | 'apiHeap' | 'workerHeap';

const round1 = (value: number) => Math.round(value * 10) / 10;

function values(samples: readonly TMemorySample[], field: TMemoryField, from: number, to: number): number[] {
  return samples
    .filter((s) => s.t >= from && s.t < to)
    .map((s) => s[field])
    .filter((v): v is number => typeof v === 'number' && v > 0);
}

export function meanOf(
  samples: readonly TMemorySample[],
  field: TMemoryField,
  from: number,
  to: number,
): number | undefined {
  const list = values(samples, field, from, to);
  return list.length === 0 ? undefined : round1(list.reduce((a, b) => a + b, 0) / list.length);
}

export function rangeOf(
  samples: readonly TMemorySample[],
  field: TMemoryField,
  from: number,
  to: number,
): { min: number; max: number } | undefined {
  const list = values(samples, field, from, to);
  return list.length === 0 ? undefined : { min: Math.min(...list), max: Math.max(...list) };
}

/** Least-squares slope in MB per minute: a leak shows as a steady rise, GC's saw-tooth averages out. */
export function slopePerMinute(
  samples: readonly TMemorySample[],
  field: TMemoryField,
  from: number,
): number | undefined {
  const points = samples
    .filter((s) => s.t >= from && typeof s[field] === 'number' && (s[field] as number) > 0)
    .map((s) => [s.t / 60, s[field] as number] as const);
  if (points.length < 3) return undefined;
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? undefined : round1(sxy / sxx);
}

export type TGrowth = {
  start: number;
  end: number;
  growthPercent: number;
  min: number;
  max: number;
  slopeMbPerMinute: number | undefined;
};

/**
 * Start = mean over the window right after the warm-up, end = mean over the last window; both windows are long
 * enough (up to a minute) that one collection or heap resize does not decide the figure.
 */
export function growthOf(
  samples: readonly TMemorySample[],
  field: TMemoryField,
  warmupSeconds: number,
  endSeconds: number,
  windowSeconds: number,
): TGrowth | undefined {
  const start = meanOf(samples, field, warmupSeconds, warmupSeconds + windowSeconds);
  const end = meanOf(samples, field, endSeconds - windowSeconds, endSeconds + 1);
  const range = rangeOf(samples, field, warmupSeconds, endSeconds + 1);
  if (start === undefined || end === undefined || !range) return undefined;
  return {
    start,
    end,
    growthPercent: round1(((end - start) / start) * 100),
    ...range,
    slopeMbPerMinute: slopePerMinute(samples, field, warmupSeconds),
  };
}
