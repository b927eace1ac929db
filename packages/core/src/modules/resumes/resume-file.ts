import { fileTypeFromBuffer } from 'file-type';

/** The kinds of resume file the pipeline can read. */
export type TResumeKind = 'pdf' | 'docx' | 'doc' | 'png' | 'jpeg';

export type TResumeTypeResult = { ok: true; kind: TResumeKind } | { ok: false; error: string };

export const PDF_MIME = 'application/pdf';
export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const DOC_MIME = 'application/msword';
/** A photo or scan of a resume, read by OCR. */
export const JPEG_MIME = 'image/jpeg';
export const PNG_MIME = 'image/png';

/** The MIME types a resume may be declared as (POST /candidates `resume.mime_type`). */
export const RESUME_MIME_TYPES = [PDF_MIME, DOC_MIME, DOCX_MIME, JPEG_MIME, PNG_MIME] as const;

/** file-type reports a legacy Word .doc as a generic OLE compound file. */
const CFB_MIME = 'application/x-cfb';

interface TExpectation {
  kind: TResumeKind;
  /** What file-type must report for the declared type. */
  sniffedMime: string;
  /** How the expected type is named in an error message. */
  label: string;
}

const EXPECTATIONS: ReadonlyMap<string, TExpectation> = new Map([
  [PDF_MIME, { kind: 'pdf', sniffedMime: PDF_MIME, label: 'a PDF document' }],
  [DOCX_MIME, { kind: 'docx', sniffedMime: DOCX_MIME, label: 'a DOCX document' }],
  [DOC_MIME, { kind: 'doc', sniffedMime: CFB_MIME, label: 'a Word (.doc) document' }],
  [JPEG_MIME, { kind: 'jpeg', sniffedMime: JPEG_MIME, label: 'a JPEG image' }],
  [PNG_MIME, { kind: 'png', sniffedMime: PNG_MIME, label: 'a PNG image' }],
]);

/** Lower-cases a MIME type and drops any parameters (`; charset=...`). */
export function normaliseMime(mime: string): string {
  const semicolon = mime.indexOf(';');
  return (semicolon === -1 ? mime : mime.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Checks by magic numbers that `bytes` really are the declared resume type.
 *
 * A legacy .doc can only be recognised as "some OLE compound file" here; the
 * text extractor confirms that it is a Word document.
 */
export async function detectResumeType(bytes: Uint8Array, declaredMime: string): Promise<TResumeTypeResult> {
  const declared = normaliseMime(declaredMime);
  const expected = EXPECTATIONS.get(declared);
  if (expected === undefined) {
    return {
      ok: false,
      error: `Unsupported resume type "${declaredMime}"; expected one of ${RESUME_MIME_TYPES.join(', ')}.`,
    };
  }
  if (bytes.byteLength === 0) {
    return { ok: false, error: 'The file is empty.' };
  }

  let sniffed: string | undefined;
  try {
    sniffed = (await fileTypeFromBuffer(bytes))?.mime;
  } catch {
    // file-type only throws on I/O-like failures of its tokenizer; treat as unknown.
    sniffed = undefined;
  }

  if (sniffed === expected.sniffedMime) {
    return { ok: true, kind: expected.kind };
  }
  const detected = sniffed === undefined ? 'unknown' : sniffed;
  return { ok: false, error: `The file is not ${expected.label} (detected: ${detected}).` };
}
