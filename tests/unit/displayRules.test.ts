// resources/display.ts: how a declared field's value reads, the same on screen and in CSV/XLSX exports.
import { describe, expect, it } from 'vitest';
import { formatDuration, linkFor, valueWithLabel } from '../../resources/display';

describe('formatDuration (H:mm:ss)', () => {
  it('pads minutes and seconds but not hours', () => {
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatDuration(5)).toBe('0:00:05');
    expect(formatDuration(61)).toBe('0:01:01');
    expect(formatDuration(3599)).toBe('0:59:59');
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(36_000 + 11 * 60 + 12)).toBe('10:11:12');
    expect(formatDuration(125 * 3600)).toBe('125:00:00');
  });

  it('rounds to whole seconds and shows a negative duration as zero', () => {
    expect(formatDuration(59.5)).toBe('0:01:00');
    expect(formatDuration(59.4)).toBe('0:00:59');
    expect(formatDuration(-30)).toBe('0:00:00');
  });

  it('shows nothing for what is not a finite number', () => {
    for (const value of [null, undefined, '3600', Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(formatDuration(value), String(value)).toBe('');
  });
});

describe('valueWithLabel', () => {
  it('puts the label after the value when they differ', () => {
    expect(valueWithLabel('am_code_PK_1', 'Bin 1 full')).toBe('am_code_PK_1 – Bin 1 full');
    expect(valueWithLabel(0, 'Zero')).toBe('0 – Zero');
  });

  it('shows the value alone without a label or when the label repeats it', () => {
    expect(valueWithLabel('x', undefined)).toBe('x');
    expect(valueWithLabel('x', '')).toBe('x');
    expect(valueWithLabel('x', 'x')).toBe('x');
    expect(valueWithLabel(7, '7')).toBe('7');
    expect(valueWithLabel(null, undefined)).toBe('');
    expect(valueWithLabel(undefined, undefined)).toBe('');
  });
});

describe('linkFor', () => {
  it("replaces every :field with the record's value, URL-encoded", () => {
    expect(linkFor('/machines/:rvmId/events/:eventId', { rvmId: 42, eventId: 'a b/c' })).toBe('/machines/42/events/a%20b%2Fc');
    expect(linkFor('/fleet/:id', { id: 0 })).toBe('/fleet/0');
    expect(linkFor('/by/:_name2', { _name2: 'x' })).toBe('/by/x');
  });

  it('leaves text that is not a field placeholder alone', () => {
    expect(linkFor('/static/page', undefined)).toBe('/static/page');
    expect(linkFor('http://host:8080/:id', { id: 5 })).toBe('http://host:8080/5');
  });

  it('gives no link when a value is missing, null or empty (or there is no record)', () => {
    expect(linkFor('/m/:rvmId', {})).toBeNull();
    expect(linkFor('/m/:rvmId', { rvmId: null })).toBeNull();
    expect(linkFor('/m/:rvmId', { rvmId: undefined })).toBeNull();
    expect(linkFor('/m/:rvmId', { rvmId: '' })).toBeNull();
    expect(linkFor('/m/:rvmId', undefined)).toBeNull();
    expect(linkFor('/m/:rvmId/:tab', { rvmId: 4 })).toBeNull();
  });
});
