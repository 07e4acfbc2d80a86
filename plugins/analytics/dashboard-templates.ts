/**
 * Dashboard templates are data: one JSON file per template in `dashboards/` (`overview.json` is served at
 * `dashboards/overview`). A template lists its panels, each a kind the engine knows (totals, series, topN, alerts,
 * errorExamples) with its settings; adding a dashboard is adding a file, not a code branch. Files are checked at
 * boot, every problem of every file in one message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { ROLLUP_DIMENSIONS, ROLLUP_METRICS } from '../monitor/api.ts';

const panelBase = { id: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/), title: z.string().min(1) };

/** Schema of one panel of a template. */
export const panelSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...panelBase, kind: z.literal('totals') }),
  z.strictObject({ ...panelBase, kind: z.literal('series'), metric: z.enum(ROLLUP_METRICS) }),
  z.strictObject({
    ...panelBase,
    kind: z.literal('topN'),
    by: z.enum(ROLLUP_DIMENSIONS),
    metric: z.enum(ROLLUP_METRICS),
    n: z.number().int().min(1).max(100),
  }),
  z.strictObject({ ...panelBase, kind: z.literal('alerts'), open: z.boolean(), limit: z.number().int().min(1).max(500) }),
  z.strictObject({
    ...panelBase,
    kind: z.literal('errorExamples'),
    n: z.number().int().min(1).max(50),
    examples: z.number().int().min(1).max(10),
  }),
]);

/** One panel of a template. */
export type DashboardPanel = z.infer<typeof panelSchema>;

/** Query parameters a template may require. */
export const TEMPLATE_PARAMETERS = ['interfaceId'] as const;

const templateSchema = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  parameters: z.array(z.enum(TEMPLATE_PARAMETERS)),
  panels: z.array(panelSchema).min(1),
});

/** A dashboard template: its name (the file name) and its contents. */
export type DashboardTemplate = z.infer<typeof templateSchema> & { name: string };

/** Reads and checks every `*.json` template of a folder; throws naming each bad file and problem. */
export function loadDashboardTemplates(directory: string): Map<string, DashboardTemplate> {
  const templates = new Map<string, DashboardTemplate>();
  const problems: string[] = [];
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
    const name = basename(file, '.json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(directory, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: not JSON (${(error as Error).message})`);
      continue;
    }
    const result = templateSchema.safeParse(parsed);
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      continue;
    }
    const ids = result.data.panels.map((panel) => panel.id);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (repeated.length > 0) problems.push(`${file}: panel ids repeated: ${[...new Set(repeated)].join(', ')}`);
    else templates.set(name, { name, ...result.data });
  }
  if (problems.length > 0) throw new Error(`Dashboard templates in ${directory} are invalid:\n  ${problems.join('\n  ')}`);
  return templates;
}
