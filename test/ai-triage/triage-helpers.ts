/** A triage engine over the shipped knowledge base and adapters, for engine tests without a server. */
import { join } from 'node:path';
import { projectRoot } from '../../kernel/project-root.ts';
import { loadKnowledgeBase } from '../../plugins/ai-triage/triage/knowledge-base.ts';
import { TriageEngine } from '../../plugins/ai-triage/triage/triage-engine.ts';
import { createStandards } from '../deidentify/deid-helpers.ts';

/** The shipped knowledge folder. */
export const knowledgeDir = join(projectRoot, 'plugins', 'ai-triage', 'knowledge');

/** Registry, knowledge base and an engine validating in compatibility mode, as the plugin does. */
export function createTriage() {
  const standards = createStandards();
  const { base } = loadKnowledgeBase(knowledgeDir);
  const engine = new TriageEngine(base, {
    detect: (content) => standards.detect(content),
    validate: async (adapter, content) => adapter.validate(content, { mode: 'compatibility', maxIssues: 1_000 }),
  });
  return { standards, base, engine };
}
