// diffFields (server/audit/diff.ts, docs/audit-log.md "Changes and redaction"): what an audit entry keeps of a write.
import { describe, expect, it } from 'vitest';
import { diffFields } from '../../server/audit/diff';

describe('diffFields', () => {
  it('an update keeps the fields it set whose value differs, id lists compared as sets', () => {
    const before = { id: 4, name: 'North', note: null, fleets: [2, 1], at: new Date('2026-01-02T03:04:05Z'), untouched: 'x' };
    const after = { name: 'North', note: 'windy', fleets: [1, 2], at: '2026-01-02T03:04:05.000Z' };
    expect(diffFields(before, after, [])).toEqual({ note: { before: null, after: 'windy' } });
  });

  it('a create lists the fields given a value, a delete those that had one', () => {
    expect(diffFields(undefined, { id: 1, name: 'A', email: '', roles: [], enabled: false }, [])).toEqual({ name: { after: 'A' }, enabled: { after: false } });
    expect(diffFields({ id: 1, name: 'A', phone: null }, undefined, [])).toEqual({ name: { before: 'A' } });
  });

  it('never keeps a secret: declared secret fields and secret-looking names say "changed" only, and nothing on delete', () => {
    const after = { pin: '1234', password: 'New#1234', apiKey: 'k', secretHash: 'h', name: 'B' };
    expect(diffFields({ pin: '0000', name: 'A' }, after, ['pin'])).toEqual({
      pin: { redacted: true },
      password: { redacted: true },
      apiKey: { redacted: true },
      secretHash: { redacted: true },
      name: { before: 'A', after: 'B' },
    });
    expect(JSON.stringify(diffFields(undefined, after, ['pin']))).not.toMatch(/1234|New#/);
    expect(diffFields({ password: 'scrypt$…', token: 't', name: 'A' }, undefined, [])).toEqual({ name: { before: 'A' } });
  });

  it('cuts long texts and keeps bytes as their size', () => {
    const changes = diffFields(undefined, { picture: `data:image/png;base64,${'A'.repeat(2000)}`, blob: new Uint8Array(12) }, []);
    expect((changes.picture as { after: string }).after).toHaveLength(501);
    expect(changes.blob).toEqual({ after: '<12 bytes>' });
  });
});
