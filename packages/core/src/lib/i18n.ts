/**
 * A label from names stored per language: the request's language, else the tenant's default
 * language, else the alphabetically first stored language.
 */
export function pickTranslation(
  names: Record<string, string> | null | undefined,
  language: string | undefined,
  defaultLanguage: string,
): string | null {
  if (!names) return null;
  if (language && names[language] !== undefined) return names[language];
  if (names[defaultLanguage] !== undefined) return names[defaultLanguage];
  const first = Object.keys(names).sort()[0];
  return first === undefined ? null : (names[first] ?? null);
}

const displayNames = new Map<string, Intl.DisplayNames>();

/** Country name from CLDR data (Intl.DisplayNames), e.g. NL → Netherlands / Nederland. */
export function countryName(countryCode: string | null | undefined, language: string): string | null {
  if (!countryCode) return null;
  let names = displayNames.get(language);
  if (!names) {
    try {
      names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' });
    } catch {
      names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    }
    displayNames.set(language, names);
  }
  try {
    return names.of(countryCode.toUpperCase()) ?? null;
  } catch {
    return countryCode.toUpperCase();
  }
}
