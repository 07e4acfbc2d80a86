/**
 * The alert rule `file-name-not-utf8`: a watched folder holds files the pattern matches whose names are not valid
 * UTF-8 (a Latin-1 `Müller.hl7` written by an older system). Such a name cannot be opened through the text path the
 * folder listing gives, so the file is never counted: the monitor says so, with the names as it can show them
 * (each undecodable byte as U+FFFD) and what to do, rather than staying silent. The episode clears once the files
 * are renamed or removed (the folder's next listing no longer finds them).
 */
import type { AlertRule } from '../api.ts';
import { namedFilesRule, type NamedFiles } from './named-files-rule.ts';

/** Key of the rule (stored with its alerts). */
export const FILE_NAME_RULE = 'file-name-not-utf8';

/** The rule over what the folder watchers found (`namesOf` answers an interface's names, relative to its folder). */
export function fileNameRule(namesOf: (interfaceId: string) => NamedFiles): AlertRule {
  return namedFilesRule(
    {
      key: FILE_NAME_RULE,
      severity: 'warning',
      title: (total) => `${total} file name${total === 1 ? ' is' : 's are'} not valid UTF-8`,
      message: (listed, _total, monitored) =>
        `${monitored.name}: ${listed} cannot be read because the name is not valid UTF-8 (each undecodable byte ` +
        'shows as \uFFFD); the file is not counted. Rename it with a UTF-8 name (or have the sender write UTF-8 names) ' +
        'and it is counted.',
    },
    namesOf,
  );
}
