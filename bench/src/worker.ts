import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32, deflateSync } from 'node:zlib';
import { installJobQueues, kyselyOf } from '@careers/core/operations';
import { openOrm, WORKER_NODE_FLAGS } from '@careers/core';
import type { TDb } from '@careers/core/testing';
import { procStatusKb, type TBenchEnvironment } from './harness.ts';
import type { TLoadScenario, TScenarioResult } from './scenario.ts';

const WORKER_MAIN = fileURLToPath(new URL('../../apps/worker/src/main.ts', import.meta.url));
/** pdf-lib and docx are core's (test-fixture) dependencies; they are loaded from there. */
const requireFromCore = createRequire(new URL('../../packages/core/package.json', import.meta.url));

const PDF_MIME = 'application/pdf';
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const TARGET_BYTES = 100 * 1024;
const USER_ID = 1;
/** POST /candidates allows 10 a minute per key. */
const keyOf = (index: number) => `ck_bench_${String(index).padStart(6, '0')}_resumes`;

type TKind = 'pdf' | 'docx';

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
}

/** An RGB PNG of noise (a stand-in for a photo: it does not compress), about width × height × 3 bytes. */
function noisePng(width: number, height: number, seed: number): Buffer {
  const next = lcg(seed);
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let i = 0; i < raw.length; i++) if (i % row !== 0) raw[i] = next() >>> 24;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const FIRST = ['Amira', 'Lars', 'Chloe', 'Ravi', 'Sanne', 'Tomas', 'Ines', 'Noor', 'Pieter', 'Marta'];
const LAST = ['Bakker', 'Okafor', 'Lindqvist', 'Moreau', 'Patel', 'Visser', 'Haddad', 'Kowalska', 'Duarte', 'Jansen'];

/** Two pages of an ordinary resume (name, contact lines, experience) for person `n`. */
function resumeLines(n: number): string[] {
  const first = FIRST[n % FIRST.length]!;
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
  const lines = [
    `${first} ${last}`,
    'Senior Software Engineer',
    `Email: ${first.toLowerCase()}.${last.toLowerCase()}.${n}@bench.example`,
    `Phone: +31 20 ${String(1_000_000 + n).slice(1, 4)} ${String(1_000_000 + n).slice(4)}`,
    `LinkedIn: linkedin.com/in/${first.toLowerCase()}${n}`,
    '',
    'Experience',
  ];
  for (let year = 2024; year > 2008; year--) {
    lines.push(`${year - 1} - ${year}  Engineer at Example ${year} B.V., Amsterdam`);
    lines.push('Built and ran services in TypeScript and PostgreSQL; led a team of four; improved latency by 40%.');
    lines.push('Introduced property-based tests, observability and on-call practices across three product teams.');
  }
  lines.push('', 'Education', '2004 - 2008  MSc Computer Science, University of Amsterdam');
  return lines;
}

type TPdfLib = {
  PDFDocument: { create: (options?: object) => Promise<TPdfDocument> };
  StandardFonts: { Helvetica: string };
};
type TPdfPage = {
  drawText: (text: string, options: object) => void;
  drawImage: (image: unknown, options: object) => void;
};
type TPdfDocument = {
  embedFont: (font: string) => Promise<unknown>;
  embedPng: (png: Uint8Array) => Promise<unknown>;
  addPage: (size: [number, number]) => TPdfPage;
  save: () => Promise<Uint8Array>;
};

async function buildPdf(n: number, photo: Buffer): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = requireFromCore('pdf-lib') as TPdfLib;
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  let page = pdf.addPage([595, 842]);
  page.drawImage(await pdf.embedPng(photo), { x: 440, y: 690, width: 100, height: 100 });
  let y = 786;
  for (const line of resumeLines(n)) {
    if (y < 56) {
      page = pdf.addPage([595, 842]);
      y = 786;
    }
    if (line) page.drawText(line, { x: 56, y, size: 10, font });
    y -= 14;
  }
  return Buffer.from(await pdf.save());
}

type TDocx = {
  Document: new (options: object) => unknown;
  Packer: { toBuffer: (document: unknown) => Promise<Buffer> };
  Paragraph: new (options: object) => unknown;
  TextRun: new (text: string) => unknown;
  ImageRun: new (options: object) => unknown;
};

async function buildDocx(n: number, photo: Buffer): Promise<Buffer> {
  const { Document, Packer, Paragraph, TextRun, ImageRun } = requireFromCore('docx') as TDocx;
  const children = [
    new Paragraph({
      children: [new ImageRun({ type: 'png', data: photo, transformation: { width: 100, height: 100 } })],
    }),
    ...resumeLines(n).map((line) => new Paragraph({ children: [new TextRun(line)] })),
  ];
  return Packer.toBuffer(new Document({ creator: 'careers bench', sections: [{ children }] }));
}

/** A photo sized so that the file comes out at about 100 KB. */
async function sizedPhoto(kind: TKind): Promise<Buffer> {
  let side = 170;
  for (let attempt = 0; attempt < 6; attempt++) {
    const photo = noisePng(side, side, 7);
    const size = (kind === 'pdf' ? await buildPdf(0, photo) : await buildDocx(0, photo)).byteLength;
    if (Math.abs(size - TARGET_BYTES) < 2048) return photo;
    side = Math.round(side * Math.sqrt(TARGET_BYTES / size));
  }
  return noisePng(side, side, 7);
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type TPhase = {
  kind: TKind;
  count: number;
  fileKb: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  completed: number;
  failed: number;
};

/** Uploads `count` resumes through the API, then starts the worker and times it until every one is done. */
async function runPhase(
  environment: TBenchEnvironment,
  db: TDb,
  kind: TKind,
  count: number,
  firstKey: number,
): Promise<TPhase> {
  const photo = await sizedPhoto(kind);
  const files = await Promise.all(
    Array.from({ length: count }, (_, i) => (kind === 'pdf' ? buildPdf(i, photo) : buildDocx(1000 + i, photo))),
  );
  const ids: string[] = [];
  for (const [i, file] of files.entries()) {
    const response = await fetch(`${environment.baseUrl}/candidates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keyOf(firstKey + Math.floor(i / 10))}` },
      body: JSON.stringify({
        user_id: USER_ID,
        resume: {
          filename: `resume-${i}.${kind}`,
          content: file.toString('base64'),
          mime_type: kind === 'pdf' ? PDF_MIME : DOCX_MIME,
        },
      }),
    });
    const body = (await response.json()) as { processing_id?: string };
    if (response.status !== 202 || !body.processing_id)
      throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
    ids.push(body.processing_id);
  }

  const worker: ChildProcess = spawn(process.execPath, [...WORKER_NODE_FLAGS, WORKER_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: environment.databaseUrl,
      LOG_LEVEL: 'info',
      JOB_POLLING_INTERVAL_SECONDS: '0.5',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = worker.pid ?? 0;
  const durations: number[] = [];
  let startedAt = 0;
  let buffered = '';
  worker.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.includes('"msg":"worker started"')) startedAt = performance.now();
      const ms = /"msg":"resume processed"/.test(line) ? /"ms":(\d+)/.exec(line)?.[1] : undefined;
      if (ms) durations.push(Number(ms));
    }
  });
  let peakKb = 0;
  const sampler = setInterval(() => (peakKb = Math.max(peakKb, procStatusKb(pid, 'VmRSS'))), 50);
  try {
    for (;;) {
      const rows = await db
        .selectFrom('resume_processings')
        .select('status')
        .where('id', 'in', ids)
        .where('status', 'in', ['completed', 'failed'])
        .execute();
      const completed = rows.filter((row) => row.status === 'completed').length;
      const failed = rows.length - completed;
      if (completed + failed === count && startedAt > 0) {
        const seconds = (performance.now() - startedAt) / 1000;
        durations.sort((a, b) => a - b);
        peakKb = Math.max(peakKb, procStatusKb(pid, 'VmHWM'));
        const fileKb = Math.round(files.reduce((sum, file) => sum + file.byteLength, 0) / files.length / 1024);
        return {
          kind,
          count,
          fileKb,
          seconds: Math.round(seconds * 100) / 100,
          perSecond: Math.round((count / seconds) * 10) / 10,
          p50: percentile(durations, 50),
          p99: percentile(durations, 99),
          peakRssMb: Math.round(peakKb / 102.4) / 10,
          completed,
          failed,
        };
      }
      if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
      await sleep(20);
    }
  } finally {
    clearInterval(sampler);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
}

/**
 * Worker throughput: ~100 KB resumes (a photo and two pages of text) uploaded through POST /candidates, then
 * processed by one worker process at its default concurrency; resumes per second and the worker's peak RSS.
 */
export const workerScenario: TLoadScenario = {
  description: 'resume worker: ~100 KB PDFs, then DOCX, at the default concurrency (resumes/s, worker peak RSS)',
  document: (options) => {
    const keys = 2 * Math.ceil(resumeCount(options.durationSeconds) / 10) + 2;
    return {
      tenants: [
        {
          slug: 'bench-resumes',
          name: 'Bench Resumes',
          api_keys: Array.from({ length: keys }, (_, index) => ({
            id: index + 1,
            name: `bench ${index}`,
            key: keyOf(index),
            scopes: ['candidates:write'],
          })),
          users: [{ id: USER_ID, name: 'Recruiter', email: 'recruiter@bench.example', role: 'recruiter' }],
        },
      ],
    };
  },
  run: async (environment, options): Promise<TScenarioResult> => {
    await installJobQueues(environment.databaseUrl);
    const orm = await openOrm(environment.databaseUrl);
    const db = kyselyOf(orm.em.fork());
    try {
      const count = resumeCount(options.durationSeconds);
      const pdf = await runPhase(environment, db, 'pdf', count, 0);
      const docx = await runPhase(environment, db, 'docx', count, Math.ceil(count / 10) + 1);
      const describe = (phase: TPhase) =>
        `${phase.kind.toUpperCase()} (${phase.fileKb} KB): ${phase.perSecond} resumes/s (${phase.count} in ${phase.seconds} s), job p50 ${phase.p50} ms, p99 ${phase.p99} ms, worker peak RSS ${phase.peakRssMb} MB`;
      return {
        scenario: 'worker',
        requests: pdf.count + docx.count,
        requestsPerSecond: Math.round(((pdf.count + docx.count) / (pdf.seconds + docx.seconds)) * 10) / 10,
        latencyP50Ms: Math.max(pdf.p50, docx.p50),
        latencyP99Ms: Math.max(pdf.p99, docx.p99),
        statuses: { completed: pdf.completed + docx.completed, failed: pdf.failed + docx.failed },
        errors: pdf.failed + docx.failed,
        peakRssMb: Math.max(pdf.peakRssMb, docx.peakRssMb),
        notes: `${describe(pdf)}\n  ${describe(docx)}\n  (req/s column = resumes/s over both; RSS is the worker's)`,
      };
    } finally {
      await orm.close();
    }
  },
};

/** Resumes per kind: about as many as the worker gets through in the requested duration (at least 50). */
function resumeCount(durationSeconds: number): number {
  return Math.max(50, Math.round(durationSeconds * 10));
}
