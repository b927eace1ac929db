/**
 * A `q` page by relevance, ranked in memory from sets shared per content version (issue #30): every query word's
 * matches with their points (`findWordMatches`), and the vacancies the other filters let through, in publication order
 * (`findCandidateOrder`). Visitors ask many different queries made of few words, so a word's set — one scan of the
 * search index — serves every query that has it, and a query costs an intersection and a sort of its matches here
 * plus one read of its page's rows. The order is the SQL one's (`rankedVacancies`): points summed over the words, then
 * publication, then id, all in the requested direction.
 */

/** One word's matches: vacancy ids ascending, and the relevance points each gets for the word (`relevanceScore`). */
export type TWordMatches = { ids: Int32Array; points: Uint8Array };

/** The vacancies a query may find, in ascending (published_at, id) order, and the same ids ascending with their position. */
export type TCandidates = { inOrder: Int32Array; ids: Int32Array; positions: Int32Array };

/** Candidates from their ids in ascending (published_at, id) order. */
export function toCandidates(inOrder: Int32Array): TCandidates {
  // Sorted as one number per vacancy (id, then position: exact below 2^53, so up to 4 million vacancies).
  const span = Math.max(1, inOrder.length);
  const keys = new Float64Array(inOrder.length);
  inOrder.forEach((id, position) => {
    keys[position] = id * span + position;
  });
  keys.sort();
  const ids = new Int32Array(inOrder.length);
  const positions = new Int32Array(inOrder.length);
  keys.forEach((key, index) => {
    positions[index] = key % span;
    ids[index] = (key - positions[index]!) / span;
  });
  return { inOrder, ids, positions };
}

/** The ids of the vacancies every word matches, with their points summed (both ascending by id). */
function intersectWords(words: readonly TWordMatches[]): { ids: Int32Array; points: Uint16Array } {
  const sorted = [...words].sort((a, b) => a.ids.length - b.ids.length);
  const first = sorted[0]!;
  let ids = first.ids;
  let points = Uint16Array.from(first.points);
  for (const word of sorted.slice(1)) {
    const nextIds = new Int32Array(ids.length);
    const nextPoints = new Uint16Array(ids.length);
    let count = 0;
    let j = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      while (j < word.ids.length && word.ids[j]! < id) j++;
      if (j === word.ids.length) break;
      if (word.ids[j] === id) {
        nextIds[count] = id;
        nextPoints[count++] = points[i]! + word.points[j]!;
      }
    }
    ids = nextIds.subarray(0, count);
    points = nextPoints.subarray(0, count);
  }
  return { ids, points };
}

/**
 * The ids of one page of the candidates all `words` match, by relevance in `direction` (ties by publication, then id,
 * in the same direction), and how many match in all.
 */
export function rankMatches(
  candidates: TCandidates,
  words: readonly TWordMatches[],
  direction: 'asc' | 'desc',
  page: { limit: number; offset: number },
): { ids: number[]; total: number } {
  if (words.length === 0) throw new Error('rankMatches needs at least one word');
  const matched = intersectWords(words);
  // One number per match orders it: points first, then its position in publication order (which ends in the id).
  const span = candidates.inOrder.length;
  const keys = new Float64Array(Math.min(matched.ids.length, span));
  let total = 0;
  let j = 0;
  for (let i = 0; i < matched.ids.length; i++) {
    const id = matched.ids[i]!;
    while (j < candidates.ids.length && candidates.ids[j]! < id) j++;
    if (j === candidates.ids.length) break;
    if (candidates.ids[j] === id) keys[total++] = matched.points[i]! * span + candidates.positions[j]!;
  }
  const ordered = keys.subarray(0, total).sort();
  const ids: number[] = [];
  for (let n = page.offset; n < Math.min(total, page.offset + page.limit); n++) {
    const key = ordered[direction === 'asc' ? n : total - 1 - n]!;
    ids.push(candidates.inOrder[key % span]!);
  }
  return { ids, total };
}
