// A picture as the classifier's input, without TensorFlow.js: the server reads pictures in its own thread (uploads,
// sample checks) while the network itself is loaded only by the training and classifying workers, so the server's
// start does not load TensorFlow.js, nor sharp before the first picture.

/** The side of the square the network reads (a quarter of the pixels of the 64×64 uploads; docs/ai-training.md "Trainer"). */
export const INPUT_SIZE = 32;

/** A picture file (PNG, JPEG…) as the network's input: INPUT_SIZE² RGB values in -1..1. */
export const pictureInput = async (file: Buffer): Promise<Float32Array> => {
  const { default: sharp } = await import('sharp');
  const raw = await sharp(file).removeAlpha().resize(INPUT_SIZE, INPUT_SIZE, { fit: 'fill' }).raw().toBuffer();
  const input = new Float32Array(raw.length);
  // centred on 0 (-1..1): plain gradient steps then move every filter weight both ways
  for (let index = 0; index < raw.length; index++) input[index] = raw[index] / 127.5 - 1;
  return input;
};
