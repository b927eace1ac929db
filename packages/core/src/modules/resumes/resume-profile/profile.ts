/**
 * The candidate's profile read from a resume's text: headline, location, links, positions, studies, skills and
 * languages, in the resume's order. Sections are found by their headings (sections.ts); each has its reader here.
 * Never throws: what cannot be read is null or empty.
 */
import type { TCandidateFields } from '../resume-fields.ts';
import { readHeadline, readLinks, readLocation, type TProfileLink, type TProfileLocation } from './contact.ts';
import { readEducation, readExperience, type TEducationEntry, type TExperienceEntry } from './entries.ts';
import { readLanguages, type TSpokenLanguage } from './languages.ts';
import { splitSections, type TSection } from './sections.ts';
import { readSkills } from './skills.ts';

export type TResumeProfile = {
  headline: string | null;
  location: TProfileLocation | null;
  links: TProfileLink[];
  experience: TExperienceEntry[];
  education: TEducationEntry[];
  skills: string[];
  languages: TSpokenLanguage[];
};

export const EMPTY_PROFILE: TResumeProfile = {
  headline: null,
  location: null,
  links: [],
  experience: [],
  education: [],
  skills: [],
  languages: [],
};

/** Lines of a resume read for its profile at most (the text is already bounded; this bounds the work per line). */
const MAX_LINES = 5_000;

function linesOf(sections: readonly TSection[], kinds: readonly TSection['kind'][]): { text: string; index: number }[] {
  return sections.filter((section) => kinds.includes(section.kind)).flatMap((section) => section.lines);
}

function attempt<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

export function extractProfile(
  text: string,
  fields: Pick<TCandidateFields, 'firstName' | 'lastName' | 'phone'>,
): TResumeProfile {
  const bounded = typeof text === 'string' ? text.normalize('NFC').split('\n').slice(0, MAX_LINES).join('\n') : '';
  const sections = attempt(() => splitSections(bounded), []);
  // The candidate's own lines: everything but positions, studies and referees (and the lists that have readers).
  const own = linesOf(sections, ['contact', 'other', 'summary']);
  const allLines = sections.flatMap((section) => section.lines).sort((a, b) => a.index - b.index);
  const firstSummary = sections.find((section) => section.kind !== 'contact');
  const top = allLines.filter(
    (line) =>
      firstSummary === undefined || line.index < (firstSummary.lines[0]?.index ?? Infinity) || own.includes(line),
  );
  return {
    headline: attempt(
      () =>
        readHeadline(
          allLines.filter((line) => own.includes(line) || top.includes(line)),
          fields.firstName,
          fields.lastName,
        ),
      null,
    ),
    location: attempt(() => readLocation(own, fields.phone), null),
    links: attempt(() => readLinks(own), []),
    experience: attempt(() => readExperience(linesOf(sections, ['experience'])), []),
    education: attempt(() => readEducation(linesOf(sections, ['education'])), []),
    skills: attempt(() => readSkills(linesOf(sections, ['skills']).map((line) => line.text)), []),
    languages: attempt(() => readLanguages(linesOf(sections, ['languages']).map((line) => line.text)), []),
  };
}
