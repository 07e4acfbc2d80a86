/**
 * The standard of an interface and what follows from it: which standards can be monitored (those whose adapter can
 * read files), the default file pattern, and which profiles fit. A profile must belong to the interface's standard
 * (a FHIR profile on an HL7 interface would be silently ignored by the HL7 reading); an interface that declares no
 * standard but names a profile takes the profile's standard; otherwise it is `auto`, detected per file.
 */
import type { StandardAdapter } from '../../../kernel/standards-registry.ts';
import type { InterfaceStandard } from '../api.ts';
import { monitorErrors } from '../errors.ts';

/** A standard the monitor can read files of, with its usual file pattern and its loaded profiles. */
export interface ReadableStandard {
  id: string;
  filePattern: string;
  profiles: string[];
}

/** The standards whose adapters can read files. */
export function readableStandards(adapters: readonly StandardAdapter[]): ReadableStandard[] {
  return adapters
    .filter((a) => a.reading !== undefined)
    .map((a) => ({ id: a.id, filePattern: a.reading!.filePattern, profiles: a.profiles().map((p) => p.name) }));
}

const EXTENSIONS = /^\*\.(?:\{([^{}*]+)\}|([^{}*,]+))$/;

/** The default file pattern of a standard; for `auto`, every readable standard's files. */
export function defaultFilePattern(standard: InterfaceStandard, readable: readonly ReadableStandard[]): string {
  if (standard !== 'auto') return readable.find((s) => s.id === standard)?.filePattern ?? '*';
  const extensions: string[] = [];
  for (const s of readable) {
    const match = EXTENSIONS.exec(s.filePattern);
    // a pattern that is not a list of extensions: fall back to an alternation of the patterns
    if (!match) return `{${readable.map((r) => r.filePattern).join(',')}}`;
    for (const ext of (match[1] ?? match[2]).split(',')) if (!extensions.includes(ext)) extensions.push(ext);
  }
  if (extensions.length === 0) return '*';
  return extensions.length === 1 ? `*.${extensions[0]}` : `*.{${extensions.join(',')}}`;
}

/** Throws STANDARD_UNAVAILABLE (400) unless the declared standard can be read here. */
export function checkStandard(standard: InterfaceStandard, readable: readonly ReadableStandard[]): void {
  if (standard === 'auto' || readable.some((s) => s.id === standard)) return;
  const available = ['auto', ...readable.map((s) => s.id)].join(', ');
  throw monitorErrors.create('STANDARD_UNAVAILABLE', { standard, available }, [
    { location: 'body', path: 'standard', message: `no loaded plugin reads ${standard} files; available: ${available}` },
  ]);
}

/**
 * The standard an interface has with this profile: the declared one when the profile belongs to it (else
 * PROFILE_NOT_FOUND, 400, listing that standard's profiles), the profile's own for `auto`.
 */
export function standardWithProfile(standard: InterfaceStandard, profile: string, readable: readonly ReadableStandard[]): InterfaceStandard {
  const candidates = standard === 'auto' ? readable : readable.filter((s) => s.id === standard);
  const owner = candidates.find((s) => s.profiles.includes(profile));
  if (owner) return owner.id as InterfaceStandard;
  const loaded = [...new Set(candidates.flatMap((s) => s.profiles))].sort();
  const list = loaded.length > 0 ? loaded.join(', ') : 'none';
  const which = standard === 'auto' ? 'loaded' : `${standard} profiles loaded`;
  throw monitorErrors.create('PROFILE_NOT_FOUND', { profile, loaded: list }, [
    { location: 'body', path: 'profileName', message: `no ${standard === 'auto' ? '' : `${standard} `}profile is named "${profile}"; ${which}: ${list}` },
  ]);
}
