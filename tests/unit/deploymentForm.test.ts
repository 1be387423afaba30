// The new-deployment form's rules (src/deployments/deploymentForm.ts): typed waves, the fleets sent
// for a tree selection, the request body, and where the server's issues are shown.
import { describe, expect, it } from 'vitest';
import { fleetIdsOf, formFieldOf, initialValues, parseWaves, requestBody, submissionErrors, waveProblem } from '../../src/deployments/deploymentForm';
import { presetOf, newDeploymentPath } from '../../src/deployments/paths';

describe('waves as typed', () => {
  it('reads whole numbers separated by commas, spaces or arrows', () => {
    expect(parseWaves('1, 10,50 100')).toEqual([1, 10, 50, 100]);
    expect(parseWaves('10 % → 50 % → 100 %')).toEqual([10, 50, 100]);
    expect(parseWaves('1.5, 100')).toBeNull();
    expect(parseWaves('')).toBeNull();
  });

  it('wants rising percentages ending at 100, or sizes of at least one machine', () => {
    expect(waveProblem('percentages', '1, 10, 50, 100')).toBeUndefined();
    expect(waveProblem('percentages', '10, 5, 100')).toBe('deployments.form.validation.percentAscending');
    expect(waveProblem('percentages', '10, 50')).toBe('deployments.form.validation.percentEnd');
    expect(waveProblem('sizes', '5, 20')).toBeUndefined();
    expect(waveProblem('sizes', '5, 0')).toBe('deployments.form.validation.sizesPositive');
    expect(waveProblem('sizes', 'a few')).toBe('deployments.form.validation.wavesNumbers');
  });
});

describe('fleets sent for a tree selection', () => {
  // 1 ─ 2 ─ 4
  //   └ 3
  const fleets = [
    { id: 1, parentId: null },
    { id: 2, parentId: 1 },
    { id: 3, parentId: 1 },
    { id: 4, parentId: 2 },
  ];

  it('sends the topmost fully checked fleets only (the server adds their sub-fleets)', () => {
    expect(fleetIdsOf([1, 2, 3, 4], fleets)).toEqual([1]);
    // half-checked 1 is in the tree's value but would bring fleet 3 with it
    expect(fleetIdsOf([1, 2, 4], fleets)).toEqual([2]);
    expect(fleetIdsOf([], fleets)).toEqual([]);
  });
});

describe('the request', () => {
  it('sends only the targets given, the waves as chosen, and the gate when switched on', () => {
    const values = { ...initialValues({ packageId: 7 }), machineIds: [3, 4], savedFilterId: '' as const, waveMode: 'sizes' as const, waveText: '1, 2' };
    expect(requestBody(values, [])).toEqual({
      packageId: 7,
      targets: { machineIds: [3, 4] },
      waveSizes: [1, 2],
      successThreshold: 90,
      errorThreshold: 10,
      requiresApproval: false,
    });
    const gated = requestBody({ ...values, gateEnabled: true, models: ['H30'], waveMode: 'percentages', waveText: '100' }, []);
    expect(gated).toMatchObject({ targets: { machineIds: [3, 4], models: ['H30'] }, waves: [100], gate: { windowMinutes: 60, maxRejectRateIncrease: 5, maxSessionsDrop: 20 } });
  });

  it('is preset from the address Software upgrade opens', () => {
    expect(presetOf(new URL(newDeploymentPath({ packageId: 12, models: ['H30', 'T9'] }), 'http://x').search)).toEqual({ packageId: 12, models: ['H30', 'T9'] });
    expect(presetOf('?packageId=abc')).toEqual({ models: [] });
  });
});

describe("the server's refusals at the inputs", () => {
  it('maps the body fields to the inputs holding them', () => {
    expect(formFieldOf('targets.fleetIds')).toBe('fleetSelection');
    expect(formFieldOf('targets.savedFilterId.termType')).toBe('savedFilterId');
    expect(formFieldOf('waveSizes')).toBe('waveText');
    expect(formFieldOf('gate.windowMinutes')).toBe('gate.windowMinutes');
    expect(formFieldOf('somethingElse')).toBe('root.serverError');
  });

  it('puts 8100 at the package, 8200 above the buttons, issues at their inputs', () => {
    expect(submissionErrors('8100', 'Can not find the software package', [])).toEqual({ packageId: 'Can not find the software package' });
    expect(submissionErrors('8200', 'The configuration package cannot be delivered repeatedly', [])).toEqual({
      root: { serverError: 'The configuration package cannot be delivered repeatedly' },
    });
    expect(
      submissionErrors('1004', 'Parameter error', [
        { field: 'gate.maxSessionsDrop', message: 'At most 100' },
        { field: 'waves', message: 'Rising' },
      ]),
    ).toEqual({
      gate: { maxSessionsDrop: 'At most 100' },
      waveText: 'Rising',
    });
  });
});
