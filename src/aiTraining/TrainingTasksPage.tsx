// Service › Training tasks, /service/trainingTask (docs/ai-training.md "Training tasks"): start a task (basic
// model, a new model name that differs from it, type, epochs), follow the tasks live (status, epochs with loss
// and accuracy, expected remaining time, complete time, failure description), cancel, and see a finished
// task's held-out accuracy and confusion matrix with a link to its AI package.
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Chip, LinearProgress, Link, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { AI_TASK_ACTIVE, AI_TASK_CANCELLABLE, AI_TASK_TYPES, type AiTaskStatus } from '../../resources/aiTraining';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import type { Page, TrainingTask } from './api';
import { issueOf } from './LabelingPage';

const REFRESH_MS = 2_000;
const percent = (value: number | null | undefined) => (value === null || value === undefined ? '' : `${(value * 100).toFixed(1)} %`);

const StatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  const color = status === 'executionSucceeded' ? 'success' : status === 'executionFailed' ? 'error' : AI_TASK_ACTIVE.includes(status as AiTaskStatus) ? 'info' : 'default';
  return <Chip size="small" color={color} label={translate(`aiTraining.tasks.statuses.${status}`, { _: status })} data-testid="task-status" data-status={status} />;
};

export const ConfusionMatrix = ({ labels, confusion }: { labels: string[]; confusion: number[][] }) => {
  const translate = useTranslate();
  return (
    <Table size="small" aria-label={translate('aiTraining.tasks.confusion')} sx={{ width: 'auto' }} data-testid="confusion">
      <TableHead>
        <TableRow>
          <TableCell />
          {labels.map((label) => (
            <TableCell key={label} align="right">
              {label}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {confusion.map((row, actual) => (
          <TableRow key={labels[actual]}>
            <TableCell component="th" scope="row">
              {labels[actual]}
            </TableCell>
            {row.map((count, predicted) => (
              <TableCell
                key={labels[predicted]}
                align="right"
                sx={{ fontWeight: actual === predicted ? 700 : 400, color: actual !== predicted && count > 0 ? 'error.main' : undefined }}
              >
                {count}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

const TaskDetail = ({ task }: { task: TrainingTask }) => {
  const translate = useTranslate();
  return (
    <TitledCard title={`#${task.id} ${task.newModelName}`} testId="task-detail">
      <Box sx={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
        <Box component="ol" sx={{ m: 0, pl: 3, minWidth: 360 }} aria-label={translate('aiTraining.tasks.progress')}>
          {task.progress.map((epoch) => (
            <li key={epoch.epoch} data-testid="epoch-line">
              <Typography variant="body2">
                {translate('aiTraining.tasks.epochLine', { epoch: epoch.epoch, loss: epoch.loss.toFixed(3), accuracy: percent(epoch.accuracy) })}
              </Typography>
            </li>
          ))}
        </Box>
        <Box>
          {task.accuracy !== null ? (
            <Typography sx={{ mb: 1 }} data-testid="task-accuracy">
              {translate('aiTraining.tasks.accuracy')}: <strong>{percent(task.accuracy)}</strong> ({task.testCount})
            </Typography>
          ) : null}
          {task.confusion && task.labels.length ? <ConfusionMatrix labels={task.labels} confusion={task.confusion} /> : null}
          {task.packageId ? (
            <Link component={RouterLink} to="/service/ai" sx={{ display: 'block', mt: 1 }}>
              {translate('aiTraining.tasks.packageLink')}: {task.newModelName}
            </Link>
          ) : null}
        </Box>
      </Box>
    </TitledCard>
  );
};

const TrainingTasksPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [form, setForm] = useState({ basicModel: 'none', newModelName: '', taskType: 'classification', epochs: '10' });
  const [nameError, setNameError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const models = useApiQuery(['aiBasicModels'], (client, signal) => client.get<string[]>('/ai/basic-models', undefined, { signal }));
  const tasks = useApiQuery(['aiTasks'], (client, signal) => client.get<Page<TrainingTask>>('/ai/training-task/page', { pageNum: 1, pageSize: 20 }, { signal }), {
    refreshEveryMs: REFRESH_MS,
  });
  const list = tasks.data?.list ?? [];
  const shown = list.find((task) => task.id === chosen) ?? list[0];

  const start = async () => {
    setNameError(null);
    try {
      const created = await http.post<TrainingTask>('/ai/training-task', { ...form, epochs: Number(form.epochs) || 10 });
      setChosen(created.id);
      tasks.reload();
    } catch (error) {
      const issue = issueOf(error);
      if (issue && (error as { data?: { issues?: unknown[] } }).data?.issues) setNameError(issue);
    }
  };
  const cancel = async (id: number) => {
    await http.post(`/ai/training-task/${id}/cancel`);
    tasks.reload();
  };

  return (
    <Box data-testid="training-tasks">
      <ScreenHeading node={node} />
      <TitledCard title={translate('aiTraining.tasks.newTask')}>
        <Box
          component="form"
          noValidate
          onSubmit={(event) => (event.preventDefault(), void start())}
          sx={{ display: 'grid', gridTemplateColumns: '200px 240px 220px 100px auto', gap: 2, alignItems: 'flex-start', justifyContent: 'start' }}
        >
          <TextField
            select
            size="small"
            label={translate('aiTraining.tasks.basicModel')}
            value={form.basicModel}
            onChange={(event) => setForm({ ...form, basicModel: event.target.value })}
            sx={{ minWidth: 180 }}
          >
            {(models.data ?? ['none']).map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={translate('aiTraining.tasks.newModelName')}
            value={form.newModelName}
            onChange={(event) => setForm({ ...form, newModelName: event.target.value })}
            error={nameError !== null}
            helperText={nameError ?? ' '}
            inputProps={{ 'data-testid': 'new-model-name' }}
            fullWidth
          />
          <TextField
            select
            size="small"
            label={translate('aiTraining.tasks.taskType')}
            value={form.taskType}
            onChange={(event) => setForm({ ...form, taskType: event.target.value })}
            sx={{ minWidth: 200 }}
          >
            {AI_TASK_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {translate(`aiTraining.tasks.types.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={translate('aiTraining.tasks.epochs')}
            value={form.epochs}
            onChange={(event) => setForm({ ...form, epochs: event.target.value.replace(/\D/g, '') })}
            sx={{ width: 100 }}
          />
          <Button type="submit" variant="contained" disabled={!form.newModelName.trim()} data-testid="start-training" sx={{ mt: 0.5, whiteSpace: 'nowrap' }}>
            {translate('aiTraining.tasks.start')}
          </Button>
        </Box>
      </TitledCard>
      <LoadState
        isPending={tasks.isPending}
        error={tasks.error}
        onRetry={tasks.reload}
        hasData={list.length > 0}
        empty={<Typography color="text.secondary">{translate('aiTraining.tasks.none')}</Typography>}
      >
        <Box sx={{ overflowX: 'auto', mb: 2 }}>
          <Table size="small" aria-label={translate('aiTraining.tasks.title')}>
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{translate('aiTraining.tasks.newModelName')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.basicModel')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.taskType')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.status')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.progress')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.remaining')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.completed')}</TableCell>
                <TableCell>{translate('aiTraining.tasks.failure')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((task) => (
                <TableRow key={task.id} hover selected={task.id === shown?.id} onClick={() => setChosen(task.id)} data-testid="task-row" sx={{ cursor: 'pointer' }}>
                  <TableCell>{task.id}</TableCell>
                  <TableCell>{task.newModelName}</TableCell>
                  <TableCell>{task.basicModel}</TableCell>
                  <TableCell>{translate(`aiTraining.tasks.types.${task.taskType}`)}</TableCell>
                  <TableCell>
                    <StatusChip status={task.status} />
                  </TableCell>
                  <TableCell sx={{ minWidth: 140 }}>
                    <LinearProgress
                      variant="determinate"
                      value={(task.progress.length / Math.max(1, task.epochs)) * 100}
                      aria-label={translate('aiTraining.tasks.progress')}
                      sx={{ height: 6, borderRadius: 1 }}
                    />
                    <Typography variant="caption">
                      {task.progress.length}/{task.epochs}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {task.expectedRemainingSeconds !== null && task.status === 'inProgress' ? translate('aiTraining.tasks.seconds', { value: task.expectedRemainingSeconds }) : ''}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{task.completedTime ?? ''}</TableCell>
                  <TableCell sx={{ maxWidth: 200 }}>{task.failure ?? ''}</TableCell>
                  <TableCell>
                    {AI_TASK_CANCELLABLE.includes(task.status as AiTaskStatus) ? (
                      <Button size="small" color="warning" onClick={(event) => (event.stopPropagation(), void cancel(task.id))} data-testid="cancel-task">
                        {translate('aiTraining.tasks.cancel')}
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        {shown ? <TaskDetail task={shown} /> : null}
      </LoadState>
    </Box>
  );
};

export default TrainingTasksPage;
