// `npm run test:mutation [-- --folder src/providers [--folder resources]] [-- --report-only]`
// Runs Stryker (stryker.config.mjs) over the folders asked for (all six when none is named), then reads
// its JSON report (reports/mutation/<folders>.json) and writes each folder's figures and surviving
// mutants into docs/test-quality.md between the report markers. Folders not in this run keep the
// section an earlier run wrote, so one folder at a time builds up the whole table.
// A survivor judged equivalent (no test can tell it apart) gets its reason from
// scripts/mutationReport.equivalents.json, keyed by `file|mutator|source line|original|replacement`
// (no line number, so edits elsewhere in the file keep the entry); the open survivors' keys are printed.
// A folder in FOLDER_PARTS (stryker.config.mjs) runs as one Stryker run per part (some of its files, with the
// tests dedicated to them), each writing reports/mutation/<folder>.part<n>.json and a summary of it (figures and
// survivors) to docs/mutation/<folder>.part<n>.json, which is committed; the folder's row merges every part's
// summary, so it counts every mutant of the folder. `--part <n>` runs only part n (e.g. again after new tests)
// and merges it with the other parts' last summaries, whichever machine ran them.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FOLDER_PARTS, MUTATED_FOLDERS, mutatePatterns, testFilesFor } from '../stryker.config.mjs';

/** One report and one sandbox per folder set, so runs over different folders may go at the same time. */
const runName = (folders) => folders.map((folder) => folder.replace(/\//g, '-')).join('+');
const reportFile = (folders) => `reports/mutation/${runName(folders)}.json`;
const DOC = 'docs/test-quality.md';
const EQUIVALENTS = 'scripts/mutationReport.equivalents.json';
const START = '<!-- mutation-report:start -->';
const END = '<!-- mutation-report:end -->';

const parseArgs = (argv) => {
  const folders = [];
  let reportOnly = false;
  let allTests = false;
  let part;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--report-only') reportOnly = true;
    else if (arg === '--all-tests') allTests = true;
    else if (arg === '--part') part = Number(argv[++i]);
    else if (arg === '--folder') folders.push(...(argv[++i] ?? '').split(','));
    else if (arg.startsWith('--folder=')) folders.push(...arg.slice('--folder='.length).split(','));
    else throw new Error(`unknown argument ${arg} (use --folder <folder>, --all-tests, --part <n>, --report-only)`);
  }
  const named = [...folders, ...(process.env.MUTATION_FOLDER ?? '').split(',')].map((folder) => folder.trim().replace(/\/+$/, '')).filter(Boolean);
  for (const folder of named) {
    if (!MUTATED_FOLDERS.includes(folder)) throw new Error(`${folder} is not one of ${MUTATED_FOLDERS.join(', ')}`);
  }
  return { folders: named.length > 0 ? named : MUTATED_FOLDERS, reportOnly, allTests, part };
};

// Stryker through its API rather than its CLI: StrykerJS 10 declares Node >= 22 and its CLI refuses
// the project's Node 20 (package.json engines); the API runs on Node 20 (it only lacks
// Object.groupBy, for which mutation-testing-metrics keeps a fallback).
const runStryker = async (folders, testFiles, mutate = mutatePatterns(folders), name = runName(folders)) => {
  const { Stryker } = await import('../node_modules/@stryker-mutator/core/dist/src/stryker.js');
  const started = Date.now();
  await new Stryker({
    configFile: 'stryker.config.mjs',
    mutate,
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    tempDirName: `.stryker-tmp-${name}`,
    ...(testFiles ? { testFiles } : {}),
  }).runMutationTest();
  return Math.round((Date.now() - started) / 60_000);
};

/** A part's figures and survivors as its last run left them, kept in the repository beside the document. */
export const partSummaryFile = (folder, index) => `docs/mutation/${runName([folder])}.part${index + 1}.json`;
export const partReportFile = (folder, index) => `reports/mutation/${runName([folder])}.part${index + 1}.json`;
const emptyFigures = () => ({ mutants: 0, killed: 0, survived: 0, noCoverage: 0, timeout: 0, errors: 0, ignored: 0, survivors: [] });
export const utcMinute = (date) => date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** Summarises a part's Stryker report into docs/mutation (its survivors without reasons: those are joined at merge). */
const keepPartSummary = (folder, parts, index, minutes, date) => {
  const figures = summarise(JSON.parse(readFileSync(partReportFile(folder, index), 'utf8')), {}).get(folder) ?? emptyFigures();
  const summary = {
    part: index + 1,
    date,
    minutes,
    tests: parts[index].tests,
    mutate: parts[index].mutate,
    ...figures,
    survivors: figures.survivors.map(({ why: _, ...survivor }) => survivor),
  };
  mkdirSync('docs/mutation', { recursive: true });
  writeFileSync(partSummaryFile(folder, index), `${JSON.stringify(summary, null, 1)}\n`);
};

/**
 * Runs a folder's parts (all, or only `only`; 0 runs none), then merges every part's figures: a part's
 * Stryker report stays on the machine that ran it, so each run keeps a summary in docs/mutation and a later
 * run of another part (on any machine) merges with it. A report without a summary (a run before summaries
 * were kept) is summarised as found.
 */
const runParts = async (folder, parts, only) => {
  for (const [index, part] of parts.entries()) {
    if (only === undefined || only === index + 1) {
      const minutes = await runStryker([folder], part.tests, part.mutate, `${runName([folder])}.part${index + 1}`);
      keepPartSummary(folder, parts, index, minutes, utcMinute(new Date()));
    } else if (!existsSync(partSummaryFile(folder, index)) && existsSync(partReportFile(folder, index))) {
      keepPartSummary(folder, parts, index, undefined, utcMinute(statSync(partReportFile(folder, index)).mtime));
    }
  }
  return parts.map((_, index) => (existsSync(partSummaryFile(folder, index)) ? JSON.parse(readFileSync(partSummaryFile(folder, index), 'utf8')) : undefined));
};

/** The folder's figures over its parts' summaries, each survivor with its reason from the equivalents as they are now. */
export const mergeParts = (summaries, equivalents) => {
  const merged = emptyFigures();
  for (const summary of summaries.filter(Boolean)) {
    for (const figure of ['mutants', 'killed', 'survived', 'noCoverage', 'timeout', 'errors', 'ignored']) merged[figure] += summary[figure];
    merged.survivors.push(...summary.survivors.map((survivor) => ({ ...survivor, why: equivalents[survivor.key] })));
  }
  return merged;
};

/** The folder of MUTATED_FOLDERS a report file belongs to (the longest prefix). */
const folderOf = (file) => MUTATED_FOLDERS.filter((folder) => file.startsWith(`${folder}/`)).sort((a, b) => b.length - a.length)[0];

/** The mutated code as written in the source, to key equivalents independently of line numbers. */
const originalText = (source, location) => {
  const lines = source.split('\n');
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1].slice(start.column - 1);
  const last = lines[end.line - 1].slice(0, end.column - 1);
  return `${first} … ${last}`.replace(/\s+/g, ' ');
};

const oneLine = (text) => text.replace(/\s+/g, ' ').trim().slice(0, 90);

export const summarise = (report, equivalents) => {
  const byFolder = new Map();
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const folder = folderOf(file);
    if (!folder) continue;
    const entry = byFolder.get(folder) ?? { mutants: 0, killed: 0, survived: 0, noCoverage: 0, timeout: 0, errors: 0, ignored: 0, survivors: [] };
    for (const mutant of mutants) {
      if (mutant.status === 'Ignored') entry.ignored += 1;
      else if (mutant.status === 'CompileError' || mutant.status === 'RuntimeError') entry.errors += 1;
      else {
        entry.mutants += 1;
        if (mutant.status === 'Killed') entry.killed += 1;
        if (mutant.status === 'Timeout') entry.timeout += 1;
        if (mutant.status === 'Survived') entry.survived += 1;
        if (mutant.status === 'NoCoverage') entry.noCoverage += 1;
      }
      if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
        const original = originalText(source, mutant.location);
        const lineText = source.split('\n')[mutant.location.start.line - 1];
        const key = `${file}|${mutant.mutatorName}|${oneLine(lineText)}|${oneLine(original)}|${oneLine(mutant.replacement ?? '')}`;
        entry.survivors.push({
          key,
          file,
          line: mutant.location.start.line,
          status: mutant.status,
          mutator: mutant.mutatorName,
          original: oneLine(original),
          replacement: oneLine(mutant.replacement ?? ''),
          // first reached outside a test (a beforeAll: the app's routes and schemas): see folderSection
          ...(mutant.static ? { static: true } : {}),
          why: equivalents[key],
        });
      }
    }
    byFolder.set(folder, entry);
  }
  return byFolder;
};

const score = ({ mutants, killed, timeout }) => (mutants === 0 ? 100 : (100 * (killed + timeout)) / mutants);

const code = (text) => `\`${text.replaceAll('`', "'").replaceAll('|', '\\|')}\``;

const partRun = (summary) => {
  const staticPass = summary.staticPass
    ? `; its ${summary.staticPass.retested} static survivors run again with every test of the part on ${summary.staticPass.date} (${summary.staticPass.minutes} min, scripts/mutationStaticPass.mjs): ${summary.staticPass.killed} killed`
    : '';
  return `part ${summary.part} on ${summary.date} (${Number.isFinite(summary.minutes) ? `${summary.minutes} min, ` : ''}${summary.mutants} mutants, ${score(summary).toFixed(1)}%${staticPass})`;
};

const NOTES = (folder) => `<!-- notes:${folder} -->`;
const NOTES_END = (folder) => `<!-- /notes:${folder} -->`;

const folderSection = (folder, figures, meta, notes = `${NOTES(folder)}\n${NOTES_END(folder)}`) => {
  const data = { folder, ...meta, ...figures, parts: undefined, survivors: undefined };
  const equivalent = figures.survivors.filter((survivor) => survivor.why && !survivor.why.startsWith('not equivalent'));
  const runs = meta.parts
    ? `Runs of \`${meta.command} --part <n>\`: ${meta.parts.map(partRun).join(', ')}`
    : `Run ${meta.date} with \`${meta.command}\`${Number.isFinite(meta.minutes) ? ` (${meta.minutes} min)` : ''}`;
  const staticSurvivors = figures.survivors.filter((survivor) => survivor.static && survivor.status === 'Survived' && !survivor.why).length;
  const lines = [
    `<!-- folder:${folder} ${JSON.stringify(data)} -->`,
    `### ${folder}`,
    '',
    `${runs}: ${figures.mutants} mutants, score **${score(figures).toFixed(1)}%** ` +
      `(${equivalent.length} equivalent survivors; ${figures.ignored} static mutants ignored, ${figures.errors} compile/runtime errors).`,
    '',
    ...(staticSurvivors
      ? [
          `${staticSurvivors} open survivors are marked *static*: code the tests' set-up ran first (the app's routes and schemas, built in a beforeAll), which Stryker then tests only with the tests that also reach it inside a test; see "Static survivors" above.`,
          '',
        ]
      : []),
    `Tests run against the mutants: ${meta.tests}.`,
    '',
    ...(meta.missingParts?.length ? [`**Not measured: part ${meta.missingParts.join(', ')}** (no report yet): the figures count the other parts' mutants only.`, ''] : []),
    notes,
    '',
  ];
  if (figures.survivors.length === 0) lines.push('No surviving mutants.');
  for (const survivor of figures.survivors) {
    // a reason starting 'not equivalent' is a note (e.g. killed by a test Stryker cannot run), not a claim
    const why = !survivor.why ? 'open' : survivor.why.startsWith('not equivalent') ? `note: ${survivor.why}` : `equivalent: ${survivor.why}`;
    lines.push(
      `- ${survivor.file}:${survivor.line} ${survivor.status}${survivor.static ? ' *static*' : ''} ${survivor.mutator} ${code(survivor.original)} → ${code(survivor.replacement)}: ${why}`,
    );
  }
  lines.push(`<!-- /folder:${folder} -->`);
  return lines.join('\n');
};

/** Folder sections already in the document: `folder → { text, data }`. */
const existingSections = (block) => {
  const sections = new Map();
  const pattern = /<!-- folder:(\S+) (\{.*?\}) -->[\s\S]*?<!-- \/folder:\1 -->/g;
  for (const match of block.matchAll(pattern)) sections.set(match[1], { text: match[0], data: JSON.parse(match[2]) });
  return sections;
};

/** The listed folders with a section, then sections of folders no longer listed (renamed, e.g. server/routes), kept as written. */
const sectionOrder = (sections) => [...MUTATED_FOLDERS.filter((folder) => sections.has(folder)), ...[...sections.keys()].filter((folder) => !MUTATED_FOLDERS.includes(folder))];

const summaryTable = (sections) => {
  const rows = sectionOrder(sections).map((folder) => {
    const figures = sections.get(folder).data;
    const partial = figures.missingParts?.length ? ` (without part ${figures.missingParts.join(', ')})` : '';
    return `| ${folder} | ${figures.mutants} | ${figures.killed} | ${figures.survived} | ${figures.noCoverage} | ${figures.timeout} | ${score(figures).toFixed(1)}% | ${figures.date}${partial} |`;
  });
  const missing = MUTATED_FOLDERS.filter((folder) => !sections.has(folder));
  return [
    '| folder | mutants | killed | survived | no coverage | timeout | score | run |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    ...(missing.length > 0 ? ['', `Not run yet: ${missing.join(', ')}.`] : []),
  ].join('\n');
};

export const writeDoc = (byFolder, meta) => {
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : `# Test quality\n\n${START}\n${END}\n`;
  const startAt = doc.indexOf(START);
  const endAt = doc.indexOf(END);
  if (startAt < 0 || endAt < startAt) throw new Error(`${DOC} lacks the ${START} … ${END} markers`);
  const sections = existingSections(doc.slice(startAt, endAt));
  for (const [folder, figures] of byFolder) {
    // what was written by hand between the notes markers (what the survivors say, what was tried) stays
    const notes = sections.get(folder)?.text.match(new RegExp(`${NOTES(folder)}[\\s\\S]*?${NOTES_END(folder)}`))?.[0];
    const text = folderSection(folder, figures, meta, notes);
    sections.set(folder, { text, data: existingSections(text).get(folder).data });
  }
  const ordered = sectionOrder(sections).map((folder) => sections.get(folder).text);
  const block = [START, '', summaryTable(sections), '', ...ordered.flatMap((text) => [text, '']), END].join('\n');
  writeFileSync(DOC, doc.slice(0, startAt) + block + doc.slice(endAt + END.length));
};

const main = async () => {
  const { folders, reportOnly, allTests, part } = parseArgs(process.argv.slice(2));
  const parts = !allTests && folders.length === 1 ? FOLDER_PARTS[folders[0]] : undefined;
  const testFiles = allTests ? undefined : testFilesFor(folders);
  const equivalents = existsSync(EQUIVALENTS) ? JSON.parse(readFileSync(EQUIVALENTS, 'utf8')) : {};
  const command = `npm run test:mutation -- ${folders.map((folder) => `--folder ${folder}`).join(' ')}${allTests ? ' --all-tests' : ''}`;
  let byFolder;
  let meta;
  if (parts) {
    // report-only over a folder in parts merges its parts' summaries again (runs none)
    const summaries = await runParts(folders[0], parts, reportOnly ? 0 : part);
    const kept = summaries.filter(Boolean);
    if (!kept.length) {
      console.log(`${folders[0]}: no part has a summary in docs/mutation yet; its section is left as written`);
      return;
    }
    const missingParts = summaries.flatMap((summary, index) => (summary ? [] : [index + 1]));
    byFolder = new Map([[folders[0], mergeParts(kept, equivalents)]]);
    meta = {
      date: kept
        .map((summary) => summary.date)
        .sort()
        .at(-1),
      command,
      tests: parts.map((p) => `${p.tests.join(', ')} against ${p.mutate.join(', ')}`).join('; '),
      minutes: kept.reduce((sum, summary) => sum + (summary.minutes ?? 0), 0),
      parts: kept,
      ...(missingParts.length ? { missingParts } : {}),
    };
  } else {
    const minutes = reportOnly ? undefined : await runStryker(folders, testFiles);
    byFolder = summarise(JSON.parse(readFileSync(reportFile(folders), 'utf8')), equivalents);
    // only the folders of this run: a report-only pass over an older mutation.json must name its folders
    for (const folder of byFolder.keys()) if (!folders.includes(folder)) byFolder.delete(folder);
    meta = {
      date: utcMinute(new Date()),
      command,
      tests: testFiles ? testFiles.join(', ') : 'every related test of the unit and server projects',
      minutes: minutes ?? Number(process.env.MUTATION_MINUTES ?? Number.NaN),
    };
  }
  writeDoc(byFolder, meta);
  for (const [folder, figures] of byFolder) {
    console.log(`${folder}: ${figures.mutants} mutants, ${score(figures).toFixed(1)}%, ${figures.survivors.length} survivors`);
    for (const survivor of figures.survivors) if (!survivor.why) console.log(`  open: ${JSON.stringify(survivor.key)}`);
  }
};

// importing the module (e.g. for its summarise) runs nothing
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
