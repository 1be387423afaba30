// Administrator-supplied regular expressions run on every write of a configured record, so they are
// bounded and checked before they are stored: at most MAX_REGEX_LENGTH characters, compilable with
// flag u, and free of the shapes that backtrack catastrophically (nested unbounded quantifiers such
// as (a+)+, an unbounded repetition of alternatives such as (a|aa)*, back-references). The pattern
// is parsed with `ret` (the tokenizer Fastify's router uses through safe-regex2); a pattern it cannot
// parse is refused rather than trusted.
import tokenizer, { types, type Token, type Tokens } from 'ret';
import { MAX_REGEX_LENGTH } from '../../resources/configuredTypes';

/** The errors catalogue key of the problem, or null when the pattern is accepted. */
export type RegexProblem = 'errors.9405' | 'errors.9406' | 'errors.9407';

/** More quantifiers than this in one pattern is refused (safe-regex2's default limit). */
const MAX_REPETITIONS = 25;

interface Walk {
  repetitions: number;
}

const children = (token: Tokens): Token[][] => {
  if (token.type === types.ROOT || token.type === types.GROUP) {
    if (token.options) return token.options;
    return token.stack ? [token.stack] : [];
  }
  if (token.type === types.REPETITION) return [[token.value]];
  return [];
};

/** Whether `token` contains a repetition that can match more than once, or alternatives. */
const contains = (token: Tokens, what: 'repetition' | 'alternation'): boolean => {
  if (what === 'repetition' && token.type === types.REPETITION && token.max > 1) return true;
  if (what === 'alternation' && (token.type === types.GROUP || token.type === types.ROOT) && (token.options?.length ?? 0) > 1) return true;
  return children(token).some((list) => list.some((child) => contains(child, what)));
};

const risky = (token: Tokens, walk: Walk): boolean => {
  if (token.type === types.REFERENCE) return true;
  if (token.type === types.REPETITION) {
    walk.repetitions++;
    if (walk.repetitions > MAX_REPETITIONS) return true;
    if (token.max === Infinity && (contains(token.value, 'repetition') || contains(token.value, 'alternation'))) return true;
  }
  return children(token).some((list) => list.some((child) => risky(child, walk)));
};

export const regexProblem = (source: string): RegexProblem | null => {
  if (source.length > MAX_REGEX_LENGTH) return 'errors.9405';
  try {
    new RegExp(source, 'u');
  } catch {
    return 'errors.9407';
  }
  try {
    return risky(tokenizer(source), { repetitions: 0 }) ? 'errors.9406' : null;
  } catch {
    return 'errors.9406';
  }
};
