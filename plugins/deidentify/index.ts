/**
 * The de-identification plugin: POST /api/deidentify on the bridge base, `workbench deidentify`, and the service
 * (DEIDENTIFY_SERVICE) other plugins use before anything derived from a message leaves the process.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { provideService } from '../../kernel/service-ref.ts';
import { DEIDENTIFY_SERVICE } from './api.ts';
import { createDeidentifyCommand } from './deidentify-commands.ts';
import { type DeidentifyConfig, deidentifyConfigSchema } from './deidentify-config.ts';
import { keyFilePath, loadOrCreateKey } from './deidentify-key.ts';
import { createDeidentifier } from './deidentifier.ts';
import { registerDeidentifyRoutes } from './deidentify-routes.ts';
import { deidentifyErrors } from './errors.ts';
import { loadZSegmentTypes } from './standards/z-segment-types.ts';

/** Registers the service, the route, the command and the error catalogue. */
export const plugin: PluginModule<DeidentifyConfig> = {
  configSchema: deidentifyConfigSchema,
  register(context) {
    context.registerErrors(deidentifyErrors.catalogue);
    const service = createDeidentifier(
      context.standards,
      () => loadOrCreateKey(keyFilePath(context.dataDir, context.config.keyFile)),
      loadZSegmentTypes(context.profiles),
      context.config.safePaths,
    );
    provideService(context.container, DEIDENTIFY_SERVICE, service);
    registerDeidentifyRoutes(context.routes, { service });
    // also on the monitor base, where the message view asks for a de-identified copy (a page calls its own base only)
    registerDeidentifyRoutes(context.routesOn('monitor'), { service });
    context.registerCommand(createDeidentifyCommand(service));
  },
};
