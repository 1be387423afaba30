// docs/machine-protocol.md and the published JSON schemas say what the gateway checks: regenerated
// from the code here, any difference fails (run `npm run docs:protocol` after changing the protocol).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { SCHEMA_FOLDER, schemaFiles, withReference } from '../../server/gateway/protocolReference';
import { schemaProblem } from '../../server/gateway/protocol';

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
