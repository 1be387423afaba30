// Regular expressions of field rules, whether declared in code or written by an administrator in a
// configured type, run on RE2's engine (re2js): its matching time grows with the text's length only,
// whatever the pattern, so no pattern can backtrack and stall the server or the console
// (docs/security.md, "Patterns"). Patterns are written as JavaScript sources (flag u) and translated
// where RE2 reads them differently, so both engines answer alike. RE2 has no look-around and no
// back-references: such a pattern is refused when it is saved, and one stored earlier fails closed
// (every value is refused with the pattern's message).
import { RE2JS } from 're2js';

export const MAX_PATTERN_LENGTH = 200;

/** Catalogue keys of a pattern that cannot be saved: too long, RE2 cannot run it, not a regex at all. */
export type PatternProblem = 'errors.9405' | 'errors.9406' | 'errors.9407';

/** Compiled patterns by source; bounded, since administrators can write any number of them. */
const compiled = new Map<string, RE2JS | null>();
const MAX_COMPILED = 500;

/** JavaScript's `\s`: RE2's is ASCII only (Unicode spaces are \p{Z}, plus the BOM). */
const JS_SPACE = '\\t\\n\\x0B\\f\\r\\p{Z}\\x{FEFF}';
/** JavaScript's `.` (flag u, no s): any code point but line terminators; RE2's excludes \n only. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/** Rewrites what RE2 reads otherwise: `\uXXXX` and `\u{X}` escapes, `\s`, `\S` and `.`. */
export const toRe2Syntax = (source: string): string => {
  let out = '';
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') {
      const next = source[index + 1] ?? '';
      const rest = source.slice(index + 2);
      const codePoint = next === 'u' ? (/^\{([0-9A-Fa-f]{1,6})\}/.exec(rest) ?? /^([0-9A-Fa-f]{4})/.exec(rest)) : null;
      if (codePoint) {
        out += `\\x{${codePoint[1]}}`;
        index += 1 + codePoint[0].length;
      } else if (next === 's') {
        out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
        index++;
      } else if (next === 'S' && !inClass) {
        out += `[^${JS_SPACE}]`;
        index++;
      } else {
        out += char + next;
        index++;
      }
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
    } else out += char === '.' ? JS_DOT : char;
  }
  return out;
};

const compile = (source: string): RE2JS | null => {
  let engine = compiled.get(source);
  if (engine !== undefined) return engine;
  try {
    engine = RE2JS.compile(toRe2Syntax(source));
  } catch {
    engine = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(source, engine);
  return engine;
};

export const patternProblem = (source: string): PatternProblem | null => {
  if (source.length > MAX_PATTERN_LENGTH) return 'errors.9405';
  if (compile(source)) return null;
  try {
    new RegExp(source, 'u');
  } catch {
    return 'errors.9407';
  }
  // Valid in JavaScript but not in RE2: a look-around, a back-reference or a repetition count over 1000.
  return 'errors.9406';
};

/** Whether `value` contains a match of `source` (as RegExp.prototype.test would); null when the pattern cannot run. */
export const patternMatches = (source: string, value: string): boolean | null => {
  const engine = compile(source);
  return engine ? engine.matcher(value).find() : null;
};
