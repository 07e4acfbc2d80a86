/**
 * The alert rule `files-not-matched`: the watched folder holds files the interface's pattern does not match (FHIR
 * `.json` files beside an interface of `*.hl7`, say), which are never read. The monitor says so, with their count and
 * the first names, rather than ignoring them without a word; severity info, so the interface's state stays what its
 * messages make it. The episode clears once the files are gone or the pattern covers them (the folder's next whole
 * listing).
 */
import type { AlertRule } from '../api.ts';
import { namedFilesRule, type NamedFiles } from './named-files-rule.ts';

/** Key of the rule (stored with its alerts). */
export const SKIPPED_FILES_RULE = 'files-not-matched';

/** The rule over what the folder watchers listed (`skippedOf` answers an interface's names, relative to its folder). */
export function skippedFilesRule(skippedOf: (interfaceId: string) => NamedFiles): AlertRule {
  return namedFilesRule(
    {
      key: SKIPPED_FILES_RULE,
      severity: 'info',
      title: (total, monitored) => `${total} file${total === 1 ? '' : 's'} not matching ${monitored.filePattern}`,
      message: (listed, total, monitored) =>
        `${monitored.name}: ${listed} in ${monitored.directoryPath} ${total === 1 ? 'does' : 'do'} not match the file pattern ` +
        `${monitored.filePattern} and ${total === 1 ? 'is' : 'are'} not read. Widen filePattern (or set standard auto, whose ` +
        'pattern covers HL7, FHIR and NCPDP files) to have them counted.',
    },
    skippedOf,
  );
}
