// How a machine's screen shows a promotion resource (docs/promotions.md#the-machine-screen): a portrait
// 1080-wide screen, promotion 1 (1080×1110) on top, promotion 2 (1080×610) below it, the logo (280×100) in the
// top-left corner over promotion 1, drawn at a fixed scale from the files' thumbnails (a video shows its name).
import { useTranslate } from 'ra-core';
import { Box, Typography } from '@mui/material';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import { PROMOTION_SLOTS, type PromotionSlot } from '../../resources/promotions';
import { useFileInfo, useThumbnailUrl } from '../generic/files';

/** Screen pixels per preview pixel: 1080 px wide becomes 270 px. */
const SCALE = 0.25;
const px = (value: number) => Math.round(value * SCALE);

const Area = ({ slot, fileId, sx }: { slot: PromotionSlot; fileId: unknown; sx?: object }) => {
  const translate = useTranslate();
  const info = useFileInfo(fileId);
  const url = useThumbnailUrl(info);
  const size = PROMOTION_SLOTS[slot];
  return (
    <Box
      data-testid={`preview-${slot}`}
      sx={{
        width: px(size.width),
        height: px(size.height),
        bgcolor: 'grey.800',
        color: 'grey.100',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        ...sx,
      }}
    >
      {url ? (
        <img src={url} alt={info?.name ?? ''} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      ) : info ? (
        <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 1, textAlign: 'center' }}>
          <PlayCircleOutlineIcon fontSize="small" />
          {translate('promotions.preview.video', { name: info.name })}
        </Typography>
      ) : (
        <Typography variant="caption">{`${translate('promotions.preview.empty')} · ${size.width}×${size.height}`}</Typography>
      )}
    </Box>
  );
};

export const MachineScreenPreview = ({ name, promotion1, promotion2, logo }: { name: string; promotion1: unknown; promotion2: unknown; logo: unknown }) => {
  const translate = useTranslate();
  return (
    <Box component="figure" sx={{ m: 0 }} aria-label={translate('promotions.preview.screen', { name })} data-testid="machine-screen-preview">
      <Box sx={{ position: 'relative', display: 'inline-block', p: 1, bgcolor: 'grey.900', borderRadius: 2 }}>
        <Area slot="promotion1" fileId={promotion1} />
        <Area slot="promotion2" fileId={promotion2} sx={{ borderTop: 1, borderColor: 'grey.600' }} />
        <Area slot="logo" fileId={logo} sx={{ position: 'absolute', top: 8 + 6, left: 8 + 6, outline: 1, outlineColor: 'grey.500' }} />
      </Box>
      <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ mt: 1, maxWidth: 480 }}>
        {translate('promotions.preview.hint')}
      </Typography>
    </Box>
  );
};
