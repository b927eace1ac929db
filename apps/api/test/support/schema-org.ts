import { readFileSync } from 'node:fs';

/**
 * Checks JSON-LD against the committed extract of the schema.org vocabulary (fixtures/schema-org-job-posting.json):
 * every `@type` is a known type, every property is valid for its node's type (declared on it or a superclass), and
 * every value fits one of the property's expected types — a node of that type or a subtype, or a literal of a data
 * type (Text, URL, Date, DateTime, Number, Integer, Boolean). Returns the problems found, each with its path.
 */

type TVocabulary = {
  types: Record<string, { subClassOf: string[]; properties: Record<string, string[]> }>;
  dataTypes: Record<string, string[]>;
};

export const vocabulary: TVocabulary = JSON.parse(
  readFileSync(new URL('../fixtures/schema-org-job-posting.json', import.meta.url), 'utf8'),
);

/** `type` and its superclasses. */
function lineage(type: string): string[] {
  return [type, ...(vocabulary.types[type]?.subClassOf ?? vocabulary.dataTypes[type] ?? [])];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether a literal is a value of the data type. */
function literalFits(value: unknown, dataType: string): boolean {
  switch (dataType) {
    case 'Text':
      return typeof value === 'string';
    case 'URL':
      return typeof value === 'string' && URL.canParse(value);
    case 'Date':
      return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
    case 'DateTime':
      return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
    case 'Number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'Integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'Boolean':
      return typeof value === 'boolean';
    default:
      return false;
  }
}

export function vocabularyProblems(node: unknown, path = '$', expected?: string[]): string[] {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return [`${path}: not a node`];
  const record = node as Record<string, unknown>;
  const type = record['@type'];
  if (typeof type !== 'string' || !vocabulary.types[type]) return [`${path}: unknown @type ${JSON.stringify(type)}`];
  const problems: string[] = [];
  if (expected && !expected.some((range) => lineage(type).includes(range)))
    problems.push(`${path}: a ${type} where ${expected.join('|')} is expected`);
  const properties = vocabulary.types[type].properties;
  for (const [name, value] of Object.entries(record)) {
    if (name === '@type' || (name === '@context' && path === '$')) continue;
    const ranges = properties[name];
    if (!ranges) {
      problems.push(`${path}.${name}: not a property of ${type}`);
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0) problems.push(`${path}.${name}: an empty list`);
    values.forEach((item, index) => {
      const where = Array.isArray(value) ? `${path}.${name}[${index}]` : `${path}.${name}`;
      if (item !== null && typeof item === 'object') problems.push(...vocabularyProblems(item, where, ranges));
      else if (
        !ranges.some((range) =>
          Object.keys(vocabulary.dataTypes).some(
            (dataType) => lineage(dataType).includes(range) && literalFits(item, dataType),
          ),
        )
      ) {
        problems.push(`${where}: ${JSON.stringify(item)} is none of ${ranges.join('|')}`);
      }
    });
  }
  return problems;
}

/** Paths of every null (JSON-LD here never has one). */
export function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPaths(item, `${path}[${index}]`));
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => nullPaths(item, `${path}.${key}`));
  return [];
}
