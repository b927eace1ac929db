import type { TResumeKind } from './resume-file.ts';
import { extractResumeText } from './resume-text.ts';
import { extractCandidateFields, type TCandidateFields } from './resume-fields.ts';
import { extractProfile, type TResumeProfile } from './resume-profile/profile.ts';

/** What the worker reads from a resume: the candidate's contact details and the profile. */
export type TParsedResume = TCandidateFields & { profile: TResumeProfile };

export type TParseResumeOptions = {
  /**
   * ISO 3166-1 alpha-2 region for phone numbers written without a country code, when the resume itself names no
   * country (the tenant's country).
   */
  defaultRegion?: string;
  signal?: AbortSignal;
  /** Told when the resume is read by OCR (the sandbox then allows it more time). */
  onOcr?: () => void;
};

/**
 * Everything the worker reads from a resume file whose type is established: its text, then the candidate's details and profile.
 * One function, so it can run wherever the worker decides (e.g. isolated from the process that calls it).
 *
 * @throws ResumeParseError when the file is corrupt or not of the given kind.
 */
export async function parseResume(
  bytes: Uint8Array,
  kind: TResumeKind,
  options: TParseResumeOptions = {},
): Promise<TParsedResume> {
  let ocr = false;
  const onOcr = () => {
    ocr = true;
    options.onOcr?.();
  };
  const text = await extractResumeText(bytes, kind, options.signal, onOcr);
  const fields = extractCandidateFields(text, { defaultRegion: options.defaultRegion, ocr });
  return { ...fields, profile: extractProfile(text, fields) };
}
