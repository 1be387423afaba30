// The repository stands alone: the product's rules are written in its own documents
// (docs/product-rules.md#citing-these-rules), so no file may cite the specification document kept outside
// it, and every document anchor a file cites (`docs/<file>.md#<anchor>`, or a relative Markdown link
// `](<file>.md#<anchor>)` inside docs/) must be made by a heading of that document.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['src', 'server', 'resources', 'i18n', 'tests', 'bench', 'scripts', 'docs', 'README.md'];
const TEXT = /\.(?:[cm]?[jt]sx?|json|md|sql|html|css|ya?ml|txt|sh)$/;
/** This file names the forbidden forms to find them. */
const SELF = 'tests/unit/standsAlone.test.ts';

/**
 * Citations of the outside specification: its name in capitals as a word (`SPEC 5`, `SPEC section 4`,
 * `(SPEC 2/6)`, `SPEC-quoted`), or a path to its file.
 */
const OUTSIDE_CITATION = /\bSPEC\b|\bSPEC\.md\b|\.\.\/shared\//;

const walk = (path: string): string[] => {
  const entries = readdirSync(join(ROOT, path), { withFileTypes: true });
  return entries.flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const child = posix.join(path, entry.name);
    if (entry.isDirectory()) return walk(child);
    return entry.isFile() && TEXT.test(entry.name) ? [child] : [];
  });
};

const files = SCANNED.flatMap((path) => (TEXT.test(path) ? [path] : walk(path))).filter((path) => path !== SELF);
const texts = new Map(files.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));

const linesOf = (path: string) => texts.get(path)!.split('\n');
/** The lines holding `needle`, numbered from 1 (a plain search first: most files hold none). */
const linesWith = (path: string, needle: string): Array<[number, string]> =>
  texts.get(path)!.includes(needle) ? linesOf(path).flatMap((line, index): Array<[number, string]> => (line.includes(needle) ? [[index + 1, line]] : [])) : [];

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2, … */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (path: string): ReadonlySet<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of linesOf(path)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
};

interface Citation {
  where: string;
  document: string;
  anchor: string;
}

const citations = (): Citation[] =>
  files.flatMap((path) =>
    linesWith(path, '.md#').flatMap(([number, line]) => {
      const where = `${path}:${number}`;
      const found: Citation[] = [...line.matchAll(/\bdocs\/([\w./-]+?\.md)#([\w-]+)/g)].map((match) => ({
        where,
        document: posix.join('docs', match[1]),
        anchor: match[2],
      }));
      if (path.startsWith('docs/') && path.endsWith('.md')) {
        for (const match of line.matchAll(/\]\(([\w./-]*?\.md)?#([\w-]+)\)/g)) {
          // `docs/x.md#a` inside a link was taken above
          if (match[1]?.startsWith('docs/')) continue;
          found.push({ where, document: match[1] ? posix.normalize(posix.join(posix.dirname(path), match[1])) : path, anchor: match[2] });
        }
      }
      return found;
    }),
  );

describe('the repository stands alone', () => {
  it('finds the files it checks', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/product-rules.md');
    expect(files.filter((path) => path.startsWith('src/')).length).toBeGreaterThan(50);
  });

  it('cites no specification outside the repository (the rule is in docs/product-rules.md: cite it there)', () => {
    const offending = files.flatMap((path) =>
      OUTSIDE_CITATION.test(texts.get(path)!) ? linesOf(path).flatMap((line, index) => (OUTSIDE_CITATION.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])) : [],
    );
    expect(offending).toEqual([]);
  });

  it('every cited docs/<file>.md#<anchor> is a heading of that document', () => {
    const found = citations();
    expect(found.some((citation) => citation.document === 'docs/product-rules.md')).toBe(true);
    const anchors = new Map<string, ReadonlySet<string>>();
    const broken = found
      .filter(({ document, anchor }) => {
        if (!texts.has(document)) return true;
        if (!anchors.has(document)) anchors.set(document, anchorsOf(document));
        return !anchors.get(document)!.has(anchor);
      })
      .map(({ where, document, anchor }) => `${where}: ${document}#${anchor}${texts.has(document) ? '' : ' (no such document)'}`);
    expect(broken).toEqual([]);
  });
});
