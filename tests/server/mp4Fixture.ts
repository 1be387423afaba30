// A hand-built MP4 for the media size checks (docs/files.md "Media sizes"): `ftyp` (brand isom, so the type
// check sees video/mp4), then `moov` with one track whose `tkhd` carries the size and whose `hdlr` says
// `vide` (or `soun`), and an `mdat` before or after `moov` (encoders put it either way).
const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

const IDENTITY = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];
const QUARTER_TURN = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000];

const tkhd = (width: number, height: number, matrix: number[]) => {
  const payload = Buffer.alloc(84); // version 0: 4 + 20 + 8 + 8 + 36 + 8
  payload.writeUInt32BE(0x00000003, 0); // version 0, flags enabled | in movie
  payload.writeUInt32BE(1, 12); // track id
  matrix.forEach((value, index) => payload.writeInt32BE(value, 40 + index * 4));
  payload.writeUInt32BE(width * 65536, 76);
  payload.writeUInt32BE(height * 65536, 80);
  return box('tkhd', payload);
};

const hdlr = (handler: string) => {
  const payload = Buffer.alloc(25);
  payload.write(handler, 8, 'latin1');
  return box('hdlr', payload);
};

export const mp4 = (width: number, height: number, { moovLast = false, handler = 'vide', quarterTurn = false } = {}) => {
  const ftyp = box('ftyp', Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41'));
  const moov = box('moov', box('trak', tkhd(width, height, quarterTurn ? QUARTER_TURN : IDENTITY), box('mdia', hdlr(handler))));
  const mdat = box('mdat', Buffer.alloc(4096, 7));
  return Buffer.concat(moovLast ? [ftyp, mdat, moov] : [ftyp, moov, mdat]);
};
