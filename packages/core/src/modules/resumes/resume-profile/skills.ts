/** The skills section: one skill per line or bullet, or several on a line separated by commas, bullets or bars. */
import { splitListLine } from './languages.ts';

const MAX_SKILLS = 100;
/** A longer entry is a sentence about skills, not a skill. */
const MAX_SKILL_WORDS = 6;
const MAX_SKILL_LENGTH = 80;

export function readSkills(lines: readonly string[]): string[] {
  const skills: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    // "Software: Excel, SAP" – a label before the list is not a skill.
    const listed = line.replace(/^[\p{L} ]{2,30}:\s+(?=.*[,;•·|])/u, '');
    for (const entry of splitListLine(listed)) {
      const skill = entry.replace(/[.;:]+$/u, '').trim();
      if (skill === '' || skill.length > MAX_SKILL_LENGTH || skill.split(/\s+/u).length > MAX_SKILL_WORDS) continue;
      const key = skill.toLocaleLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      skills.push(skill);
      if (skills.length >= MAX_SKILLS) return skills;
    }
  }
  return skills;
}
