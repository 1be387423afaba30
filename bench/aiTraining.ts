// Training on synthetic machine pictures (docs/benchmarks.md "AI training"): N labelled 64×64 pictures of the
// six item classes, drawn as the simulator draws them, trained by the worker's classifier; prints the
// held-out accuracy, the time and the machine's load. `npx tsx bench/aiTraining.ts [samples] [epochs] [seed]`
// (the seed picks the held-out pictures, the first weights and the order: runs with two seeds show the spread)
import { loadavg } from 'node:os';
import { trainClassifier } from '../server/ai/classifier';
import { pictureInput } from '../server/ai/pictureInput';
import { Random } from '../server/seed/random';
import { drawItemPicture } from '../server/simulator/itemPicture';
import { ITEM_TYPES } from '../resources/fleetCatalogue';

const count = Number(process.argv[2] ?? 2000);
const epochs = Number(process.argv[3] ?? 12);
const seed = Number(process.argv[4] ?? 1);
const random = new Random('bench-ai');
const started = Date.now();
const samples = [];
for (let index = 0; index < count; index++) {
  const label = index % ITEM_TYPES.length;
  samples.push({ input: await pictureInput(await drawItemPicture(() => random.next(), ITEM_TYPES[label])), label });
}
const drawn = (Date.now() - started) / 1000;
console.log(`drawn ${drawn}s`);
const load = loadavg()[0];
const outcome = await trainClassifier(samples, {
  labels: ITEM_TYPES,
  epochs,
  holdOut: 0.2,
  seed,
  onEpoch: (report) =>
    console.log(`epoch ${report.epoch}/${report.epochs} loss ${report.loss.toFixed(3)} accuracy ${report.accuracy.toFixed(3)} at ${report.seconds.toFixed(0)} s`),
});
console.log(
  `${count} samples (drawn and decoded in ${drawn.toFixed(1)} s), ${outcome.epochs} epochs: held-out accuracy ${(outcome.accuracy * 100).toFixed(1)} % ` +
    `on ${outcome.testCount}, training ${outcome.seconds.toFixed(0)} s; load average ${load.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
);
console.log(JSON.stringify(outcome.confusion));
