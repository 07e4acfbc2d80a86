/**
 * Routes of monitored interfaces: list, create, read, update, delete (professional tier). Creating or changing an
 * interface checks the folder, the pattern, the profile and the name first; the watcher follows every change.
 */
import { z } from 'zod';
import { pagedAnswer, pageQueryShape } from '../../../kernel/http/paging.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { interfaceNotFound, type MonitoredInterface } from '../api.ts';
import type { Placement, PlacementFacts } from '../team/interface-ownership.ts';
import { monitorErrors } from '../errors.ts';
import { overlappingInterface, type WatchedPlace } from './folder-overlap.ts';
import { checkDirectory, checkFilePattern } from './interface-input.ts';
import { checkStandard, defaultFilePattern, standardWithProfile, type ReadableStandard } from './interface-standard.ts';
import type { InterfaceChanges, InterfaceStore } from './interface-store.ts';
import { createInterfaceBody, idParams, interfaceSchema, updateInterfaceBody } from '../monitor-schemas.ts';
import { MONITOR_EXAMPLES } from '../monitor-examples.ts';

/** What the routes need. */
export interface InterfaceRouteDeps {
  interfaces: InterfaceStore;
  clock: Clock;
  /** The standards whose files can be read, with their file patterns and loaded profiles. */
  readableStandards(): ReadableStandard[];
  /** Called after an interface was created or changed (with its placement when given), so watching follows. */
  changed(monitored: MonitoredInterface, placement?: Placement): Promise<void>;
  /** Its placement and owner in the team. */
  placementOf(id: string): PlacementFacts;
  /** Called before an interface is removed, so its watcher stops first. */
  removing(id: string): Promise<void>;
}

/** What creating or changing an interface checks: folder, standard, profile, pattern, name and overlap. */
const CHECKED_INPUT_ERRORS = [
  'DIRECTORY_UNREADABLE',
  'STANDARD_UNAVAILABLE',
  'PROFILE_NOT_FOUND',
  'FILE_PATTERN_INVALID',
  'INTERFACE_NAME_TAKEN',
  'INTERFACE_FOLDER_TAKEN',
] as const;

/** Registers the interface routes. */
export function registerInterfaceRoutes(routes: RouteRegistrar, deps: InterfaceRouteDeps): void {
  const { interfaces, clock } = deps;
  const answer = (monitored: MonitoredInterface) => ({ ...monitored, ...deps.placementOf(monitored.id) });

  async function requireInterface(id: string): Promise<MonitoredInterface> {
    const found = await interfaces.get(id);
    if (!found) throw interfaceNotFound(id, 'id', 'params');
    return found;
  }

  async function checkNameFree(name: string, exceptId?: string): Promise<void> {
    const existing = await interfaces.findByName(name);
    if (existing && existing.id !== exceptId) {
      throw monitorErrors.create('INTERFACE_NAME_TAKEN', { name }, [
        { location: 'body', path: 'name', message: `an interface named "${name}" already exists` },
      ]);
    }
  }

  /** 409 when another interface would count files of this one (same folder, or nested with subfolders, and overlapping patterns). */
  async function checkFolderFree(place: WatchedPlace): Promise<void> {
    const other = overlappingInterface(place, await interfaces.list());
    if (other) {
      throw monitorErrors.create('INTERFACE_FOLDER_TAKEN', { other: other.name, otherId: other.id, path: other.directoryPath, pattern: other.filePattern }, [
        { location: 'body', path: 'filePattern', message: `interface "${other.name}" watches the same files` },
      ]);
    }
  }

  routes.route({
    method: 'GET',
    url: '/api/monitor/interfaces',
    examples: MONITOR_EXAMPLES.listInterfaces,
    summary: 'List monitored interfaces by name, a keyset page at a time',
    description:
      'At most limit interfaces (1..1,000, default 100); the envelope\'s page.next is the cursor of the following page and page.truncated says the limit cut the list.',
    tags: ['monitor'],
    tier: 'professional',
    query: z.object(pageQueryShape()).strict(),
    errors: ['CURSOR_INVALID'],
    paged: true,
    response: z.array(interfaceSchema),
    async handler({ query }) {
      const page = await interfaces.page({ limit: query.limit, cursor: query.cursor });
      return pagedAnswer(page.items.map(answer), page);
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/interfaces',
    examples: MONITOR_EXAMPLES.createInterface,
    minimumRole: 'MonitorOperator',
    summary: 'Create a monitored interface (enabled at once)',
    tags: ['monitor'],
    tier: 'professional',
    body: createInterfaceBody,
    errors: CHECKED_INPUT_ERRORS,
    response: interfaceSchema,
    successStatus: 201,
    async handler({ body }) {
      const directoryPath = checkDirectory(body.directoryPath);
      const readable = deps.readableStandards();
      let standard = body.standard ?? 'auto';
      checkStandard(standard, readable);
      if (body.profileName) standard = standardWithProfile(standard, body.profileName, readable);
      // SPEC: an interface that names no standard defaults to *.hl7 files; a declared standard brings its own pattern
      const filePattern = body.filePattern ?? (body.standard === undefined ? '*.hl7' : defaultFilePattern(standard, readable));
      checkFilePattern(filePattern);
      await checkNameFree(body.name);
      await checkFolderFree({ directoryPath, filePattern, recursive: body.recursive });
      const created = await interfaces.create(
        {
          name: body.name,
          standard,
          directoryPath,
          filePattern,
          profileName: body.profileName ?? null,
          validationMode: body.validationMode,
          recursive: body.recursive,
          usePolling: body.usePolling,
          alertRules: body.alertRules,
        },
        clock.now().toISOString(),
      );
      await deps.changed(created, body.placement);
      return answer(created);
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/interfaces/:id',
    examples: MONITOR_EXAMPLES.getInterface,
    summary: 'One monitored interface',
    tags: ['monitor'],
    tier: 'professional',
    params: idParams,
    errors: ['INTERFACE_NOT_FOUND'],
    response: interfaceSchema,
    handler: async ({ params }) => answer(await requireInterface(params.id)),
  });

  routes.route({
    method: 'PUT',
    url: '/api/monitor/interfaces/:id',
    examples: MONITOR_EXAMPLES.updateInterface,
    minimumRole: 'MonitorOperator',
    summary: 'Change an interface; enabled false stops watching at once, true resumes and reads what arrived meanwhile',
    tags: ['monitor'],
    tier: 'professional',
    params: idParams,
    body: updateInterfaceBody,
    errors: ['INTERFACE_NOT_FOUND', ...CHECKED_INPUT_ERRORS],
    response: interfaceSchema,
    async handler({ params, body }) {
      const current = await requireInterface(params.id);
      const { placement: _placement, ...fields } = body;
      const changes: InterfaceChanges = { ...fields };
      if (body.directoryPath !== undefined) changes.directoryPath = checkDirectory(body.directoryPath);
      if (body.filePattern !== undefined) checkFilePattern(body.filePattern);
      const readable = deps.readableStandards();
      if (body.standard !== undefined) checkStandard(body.standard, readable);
      // the profile kept or given must belong to the standard kept or given
      const profile = body.profileName === undefined ? current.profileName : body.profileName;
      if (profile && (body.standard !== undefined || body.profileName)) {
        changes.standard = standardWithProfile(body.standard ?? current.standard, profile, readable);
      }
      if (body.name !== undefined) await checkNameFree(body.name, params.id);
      if (body.directoryPath !== undefined || body.filePattern !== undefined || body.recursive !== undefined) {
        await checkFolderFree({
          id: params.id,
          directoryPath: changes.directoryPath ?? current.directoryPath,
          filePattern: body.filePattern ?? current.filePattern,
          recursive: body.recursive ?? current.recursive,
        });
      }
      const updated = await interfaces.update(params.id, changes, clock.now().toISOString());
      if (!updated) throw interfaceNotFound(params.id, 'id', 'params');
      await deps.changed(updated, body.placement);
      return answer(updated);
    },
  });

  routes.route({
    method: 'DELETE',
    url: '/api/monitor/interfaces/:id',
    examples: MONITOR_EXAMPLES.deleteInterface,
    minimumRole: 'MonitorOperator',
    summary: 'Stop watching and remove an interface with its ledger, messages and roll-ups (alerts stay)',
    tags: ['monitor'],
    tier: 'professional',
    params: idParams,
    errors: ['INTERFACE_NOT_FOUND'],
    response: z.object({ id: z.string(), removed: z.boolean() }),
    async handler({ params }) {
      await requireInterface(params.id);
      await deps.removing(params.id);
      if (!(await interfaces.remove(params.id))) throw interfaceNotFound(params.id, 'id', 'params');
      return { id: params.id, removed: true };
    },
  });
}
