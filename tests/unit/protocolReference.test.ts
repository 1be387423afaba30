// docs/machine-protocol.md and the published JSON schemas say what the gateway checks: regenerated
// from the code here, any difference fails (run `npm run docs:protocol` after changing the protocol).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { SCHEMA_FOLDER, schemaFiles, withReference } from '../../server/gateway/protocolReference';
import { schemaProblem } from '../../server/gateway/protocol';
import { fieldText, modelsText, successText } from '../../server/commands/reference';

describe('the machine protocol document', () => {
  it('holds the allowed values and limits the code checks (npm run docs:protocol)', () => {
    const document = readFileSync('docs/machine-protocol.md', 'utf8');
    expect(withReference(document)).toBe(document);
    expect(document).toContain('| `donation` |');
    expect(document).toContain('| 101 |');
  });

  it("publishes each kind's JSON schema as a file, and the files judge messages as the gateway does", () => {
    const files = schemaFiles();
    expect(readdirSync(SCHEMA_FOLDER).sort()).toEqual([...files.keys()].map((path) => path.slice(SCHEMA_FOLDER.length + 1)).sort());
    for (const [path, content] of files) expect(readFileSync(path, 'utf8'), path).toBe(content);
    const session = JSON.parse(readFileSync(`${SCHEMA_FOLDER}/session.json`, 'utf8'));
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const validate = ajv.compile(session);
    const message = {
      v: 1,
      id: 'm1',
      ts: '2026-11-27T10:00:00Z',
      sessionId: 's1',
      startTime: '2026-11-27T09:59:00Z',
      endTime: '2026-11-27T10:00:00Z',
      payoutMethod: 'receipt',
      totalRefund: 0.1,
      items: [{ seq: 1, itemType: 'can', refund: 0.1 }],
    };
    const voucher = { ...message, voucherCode: 'R1', voucherValidUntil: '2026-12-27T10:00:00Z' };
    // a validity without a voucher is refused by both
    const { voucherCode: _none, ...validityAlone } = voucher;
    expect(schemaProblem('session', voucher)).toBeNull();
    expect(schemaProblem('session', validityAlone)).not.toBeNull();
    for (const candidate of [
      message,
      { ...message, payoutMethod: 'cash' },
      { ...message, items: [{ seq: 1, itemType: 'can', refund: 0.1, rejectReason: 7 }] },
      voucher,
      validityAlone,
    ]) {
      expect(validate(candidate), JSON.stringify(candidate)).toBe(schemaProblem('session', candidate) === null);
    }
  });
});

// The catalogue has no parameter with only one bound or a text without pattern, nor a command that both uploads and
// stores: the command table's wording for them is checked here, on declarations made for the test.
describe("the command table's wording", () => {
  it('says each kind of parameter, its bounds on either side and its patterns', () => {
    expect(fieldText('volume', { type: 'number', integer: true, min: 0, required: true })).toBe('`volume` (whole number, 0..…)');
    expect(fieldText('ratio', { type: 'number', max: 1.5 })).toBe('`ratio?` (number, …..1.5)');
    expect(fieldText('ratio', { type: 'number' })).toBe('`ratio?` (number)');
    expect(fieldText('note', { type: 'text' })).toBe('`note?` (text)');
    expect(
      fieldText('code', {
        type: 'text',
        patterns: [
          { regex: '^[A-Z]+$', message: 'validation.pattern' },
          { regex: '^.{2,4}$', message: 'validation.pattern' },
        ],
      }),
    ).toBe('`code?` (matching `^[A-Z]+$`, matching `^.{2,4}$`)');
    expect(fieldText('enabled', { type: 'boolean', patterns: [{ regex: 'x', message: 'validation.pattern' }] })).toBe('`enabled?` (boolean)');
  });

  it('names the models a command is for or not for, and what its success does', () => {
    expect(modelsText({ onlyModels: ['H30', 'S1'] })).toBe('H30, S1');
    expect(modelsText({ exceptModels: ['S1', 'M5'] })).toBe('all but S1, M5');
    expect(modelsText({ exceptModels: [] })).toBe('all');
    expect(successText({ uploadsFile: true, storesParams: true })).toBe(
      "uploads a file (`file`) before its result; the server writes the params to the machine's fields of the same names",
    );
    expect(successText({})).toBe('–');
  });
});
