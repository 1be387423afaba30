// Image classification's confusion matrix (docs/ai-training.md#image-classification): true labels as rows, the
// model's labels as columns, each row's recall and each column's precision; a count is a button that shows
// those samples in the review below.
import { useTranslate } from 'ra-core';
import { Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ConfusionAnswer } from './api';

export const percent = (value: number | null | undefined) => (value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)} %`);

export const ClassifyMatrix = ({ confusion, onPick }: { confusion: ConfusionAnswer; onPick: (actual: string, predicted: string) => void }) => {
  const translate = useTranslate();
  const { labels, matrix, perLabel } = confusion;
  if (!confusion.total) return <Typography color="text.secondary">{translate('aiTraining.classify.noMatrix')}</Typography>;
  return (
    <>
      <Typography sx={{ mb: 1 }} data-testid="classify-accuracy">
        {translate('aiTraining.classify.accuracy', { total: confusion.total, accuracy: percent(confusion.accuracy) })}
      </Typography>
      <Table size="small" aria-label={translate('aiTraining.classify.matrixLabel')} sx={{ width: 'auto' }} data-testid="classify-matrix">
        <TableHead>
          <TableRow>
            <TableCell>
              {translate('aiTraining.classify.actual')} \ {translate('aiTraining.classify.predicted')}
            </TableCell>
            {labels.map((label) => (
              <TableCell key={label} align="right">
                {label}
              </TableCell>
            ))}
            <TableCell align="right">{translate('aiTraining.classify.recall')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {matrix.map((row, actual) => (
            <TableRow key={labels[actual]} data-testid="matrix-row" data-label={labels[actual]}>
              <TableCell component="th" scope="row">
                {labels[actual]}
              </TableCell>
              {row.map((count, predicted) => (
                <TableCell key={labels[predicted]} align="right" data-testid="matrix-cell" data-actual={labels[actual]} data-predicted={labels[predicted]}>
                  {count ? (
                    <Link
                      component="button"
                      type="button"
                      underline="hover"
                      onClick={() => onPick(labels[actual], labels[predicted])}
                      aria-label={translate('aiTraining.classify.cellHint', { count, actual: labels[actual], predicted: labels[predicted] })}
                      sx={{ fontWeight: actual === predicted ? 700 : 400, color: actual !== predicted ? 'error.main' : undefined }}
                    >
                      {count}
                    </Link>
                  ) : (
                    <Typography component="span" variant="body2" color="text.secondary">
                      0
                    </Typography>
                  )}
                </TableCell>
              ))}
              <TableCell align="right" data-testid="recall">
                {percent(perLabel[actual]?.recall)}
              </TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell component="th" scope="row">
              {translate('aiTraining.classify.precision')}
            </TableCell>
            {perLabel.map((figures) => (
              <TableCell key={figures.label} align="right" data-testid="precision">
                {percent(figures.precision)}
              </TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableBody>
      </Table>
    </>
  );
};
