/**
 * Lays a blueprint onto a version's message structure: walks the structure in order, enters required groups and the
 * groups the blueprint asks for, and writes each segment as often as the blueprint wants, within the structure's
 * cardinality (at least once when required). The result is the ordered list of segments to build.
 */
import type { Hl7MessageStructure, Hl7StructureNode } from '../hl7-definitions.ts';
import { type Hl7MessageBlueprint, resolveCount } from './hl7-message-blueprints.ts';
import type { Hl7Scenario } from './hl7-generator-scenario.ts';

/** One segment to build. */
export interface PlannedSegment {
  name: string;
  /** Innermost group name ('' at the top level). */
  group: string;
  /** Repetition index of the innermost group. */
  iteration: number;
}

function wanted(blueprint: Hl7MessageBlueprint, scenario: Hl7Scenario, group: string, name: string, iteration: number): number {
  const count = blueprint.segments[`${group}/${name}`] ?? blueprint.segments[name];
  return resolveCount(count, scenario, iteration);
}

/** The segments of one message, in the order the structure prescribes. */
export function planMessageSegments(
  structure: Hl7MessageStructure,
  blueprint: Hl7MessageBlueprint,
  scenario: Hl7Scenario,
): PlannedSegment[] {
  const plan: PlannedSegment[] = [];
  const walk = (nodes: readonly Hl7StructureNode[], group: string, iteration: number) => {
    // A segment listed twice in one group (ROL, NTE) is written at its first place only.
    const written = new Set<string>();
    for (const node of nodes) {
      if (node.kind === 'group') {
        if (node.min < 1 && !blueprint.groups.includes(node.name)) continue;
        const repeats = Math.min(node.max, Math.max(1, resolveCount(blueprint.groupRepeats?.[node.name] ?? 1, scenario, iteration)));
        for (let i = 0; i < repeats; i++) walk(node.children, node.name, i);
        continue;
      }
      const members = node.kind === 'choice' ? node.children.filter((c) => c.kind === 'segment') : [node];
      const chosen = members.find((m) => wanted(blueprint, scenario, group, m.name, iteration) > 0) ?? members[0];
      if (!chosen || written.has(chosen.name)) continue;
      const count = Math.min(node.max, Math.max(node.min, wanted(blueprint, scenario, group, chosen.name, iteration)));
      if (count > 0) written.add(chosen.name);
      for (let i = 0; i < count; i++) plan.push({ name: chosen.name, group, iteration });
    }
  };
  walk(structure.nodes, '', 0);
  return plan;
}
