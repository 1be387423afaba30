// How a new deployment rolls out (docs/deployments.md "Waves", "The business gate"): its waves as
// cumulative percentages (with presets) or explicit machine counts, the success and error thresholds,
// the optional business gate and the optional approval by a second user.
import { useTranslate } from 'ra-core';
import { useFormContext, useWatch } from 'react-hook-form';
import { BooleanInput, maxValue, minValue, NumberInput, RadioButtonGroupInput, TextInput } from 'react-admin';
import { Box, Button, InputAdornment, Stack, Typography } from '@mui/material';
import { DEPLOYMENT_LIMITS } from '../../resources/deployment';
import { WAVE_PRESETS, wavesText, type WaveMode } from './deploymentForm';

const PERCENT = { slotProps: { input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } } };
const percentRange = [minValue(0), maxValue(100)];

export const WaveInputs = () => {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const mode = useWatch({ name: 'waveMode' }) as WaveMode;
  const choosePreset = (waves: readonly number[]) => {
    setValue('waveMode', 'percentages', { shouldDirty: true });
    setValue('waveText', wavesText(waves), { shouldDirty: true, shouldValidate: true });
  };
  return (
    <Box>
      <RadioButtonGroupInput
        source="waveMode"
        label="deployments.form.waveMode"
        choices={[
          { id: 'percentages', name: 'deployments.form.wavePercentages' },
          { id: 'sizes', name: 'deployments.form.waveSizes' },
        ]}
        row
        helperText={false}
      />
      <TextInput
        source="waveText"
        label={mode === 'sizes' ? 'deployments.form.waveSizesText' : 'deployments.form.wavePercentagesText'}
        helperText={mode === 'sizes' ? 'deployments.form.waveSizesHelp' : 'deployments.form.wavePercentagesHelp'}
        fullWidth
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }} role="group" aria-label={translate('deployments.form.presets')}>
        <Typography variant="body2" color="text.secondary">
          {translate('deployments.form.presets')}
        </Typography>
        {WAVE_PRESETS.map((waves) => (
          <Button key={waves.join('-')} size="small" variant="outlined" onClick={() => choosePreset(waves)} sx={{ textTransform: 'none' }}>
            {waves.length === 1 ? translate('deployments.form.allAtOnce') : waves.map((value) => `${value} %`).join(' → ')}
          </Button>
        ))}
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 2 }}>
        <NumberInput
          source="successThreshold"
          label="deployments.form.successThreshold"
          helperText="deployments.form.successThresholdHelp"
          min={0}
          max={100}
          step={1}
          validate={percentRange}
          {...PERCENT}
        />
        <NumberInput
          source="errorThreshold"
          label="deployments.form.errorThreshold"
          helperText="deployments.form.errorThresholdHelp"
          min={0}
          max={100}
          step={1}
          validate={percentRange}
          {...PERCENT}
        />
      </Box>
    </Box>
  );
};

export const GateInputs = () => {
  const enabled = useWatch({ name: 'gateEnabled' }) as boolean;
  return (
    <Box>
      <BooleanInput source="gateEnabled" label="deployments.form.gateEnabled" helperText="deployments.form.gateHelp" />
      {enabled ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', columnGap: 2 }} data-testid="gate-inputs">
          <NumberInput
            source="gate.windowMinutes"
            label="deployments.form.windowMinutes"
            helperText="deployments.form.windowMinutesHelp"
            min={1}
            max={DEPLOYMENT_LIMITS.maxWindowMinutes}
            step={1}
            validate={[minValue(1), maxValue(DEPLOYMENT_LIMITS.maxWindowMinutes)]}
          />
          <NumberInput
            source="gate.maxRejectRateIncrease"
            label="deployments.form.maxRejectRateIncrease"
            helperText="deployments.form.maxRejectRateIncreaseHelp"
            min={0}
            max={100}
            validate={percentRange}
          />
          <NumberInput
            source="gate.maxSessionsDrop"
            label="deployments.form.maxSessionsDrop"
            helperText="deployments.form.maxSessionsDropHelp"
            min={0}
            max={100}
            validate={percentRange}
            {...PERCENT}
          />
        </Box>
      ) : null}
    </Box>
  );
};

export const ApprovalInput = () => <BooleanInput source="requiresApproval" label="deployments.form.requiresApproval" helperText="deployments.form.requiresApprovalHelp" />;
