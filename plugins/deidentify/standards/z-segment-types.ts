/**
 * Data types of Z-segment fields as HL7 profile packs define them (`zSegments` of a profile file: each segment's
 * fields in order, each with a `dataType`). Only a profile says what a Z-segment holds, so de-identification replaces
 * Z-segment fields by these types and leaves Z-segments no pack defines as they are (with a note in the report).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { ProfilePack } from '../../../kernel/standards/profile-packs.ts';

/** Z-segment id -> data type of each field (index 0 is field 1). */
export type ZSegmentTypes = ReadonlyMap<string, readonly string[]>;

/** Reads every HL7 pack's profile files; a file that cannot be read or has no `zSegments` adds nothing. */
export function loadZSegmentTypes(packs: readonly ProfilePack[]): ZSegmentTypes {
  const types = new Map<string, string[]>();
  for (const pack of packs) {
    if (pack.manifest.standard !== 'hl7') continue;
    for (const file of pack.files) {
      let parsed: unknown;
      try {
        const text = readFileSync(file, 'utf8');
        parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
      } catch {
        continue;
      }
      const segments = (parsed as { zSegments?: unknown } | null)?.zSegments;
      if (!segments || typeof segments !== 'object') continue;
      for (const [id, definition] of Object.entries(segments as Record<string, unknown>)) {
        const fields = (definition as { fields?: unknown } | null)?.fields;
        if (!/^Z[A-Z0-9]{2}$/.test(id) || !Array.isArray(fields)) continue;
        types.set(
          id,
          fields.map((field) => String((field as { dataType?: unknown } | null)?.dataType ?? '').toUpperCase()),
        );
      }
    }
  }
  return types;
}
