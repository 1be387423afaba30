// AI training's routes (docs/ai-training.md): machine pictures, get samples, labeling, training tasks, image classification.
import type { TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { registerClassifyRoutes } from './classify';
import { registerLabelingRoutes } from './labeling';
import { registerPictureRoutes } from './pictures';
import { registerSampleRoutes } from './samples';
import { registerTaskRoutes } from './tasks';

export const registerAiTrainingRoutes = (app: TypedApp, services: Services) => {
  registerPictureRoutes(app, services);
  registerSampleRoutes(app, services);
  registerLabelingRoutes(app, services);
  registerTaskRoutes(app, services);
  registerClassifyRoutes(app, services);
};
