/**
 * The alert rule `file-name-not-utf8`: a watched folder holds files the pattern matches whose names are not valid
 * UTF-8 (a Latin-1 `Müller.hl7` written by an older system). Such a name cannot be opened through the text path the
 * folder listing gives, so the file is never counted: the monitor says so, with the names as it can show them
 * (each undecodable byte as U+FFFD) and what to do, rather than staying silent. The episode clears once the files
 * are renamed or removed (the folder's next listing no longer finds them).
 */
import type { AlertRule } from './api.ts';

/** Key of the rule (stored with its alerts). */
export const FILE_NAME_RULE = 'file-name-not-utf8';

/** Names listed in the alert's message at most. */
const NAMES_SHOWN = 5;

/** The rule over what the folder watchers found (`namesOf` answers an interface's names, relative to its folder). */
export function fileNameRule(namesOf: (interfaceId: string) => { names: readonly string[]; total: number }): AlertRule {
  return {
    key: FILE_NAME_RULE,
    async evaluate(monitored) {
      const { names, total } = namesOf(monitored.id);
      if (total === 0) return { active: false };
      const shown = names.slice(0, NAMES_SHOWN).map((name) => `"${name}"`).join(', ');
      const more = total > NAMES_SHOWN ? ` and ${total - Math.min(NAMES_SHOWN, names.length)} more` : '';
      return {
        active: true,
        severity: 'warning',
        title: `${total} file name${total === 1 ? ' is' : 's are'} not valid UTF-8`,
        message:
          `${monitored.name}: ${shown}${more} cannot be read because the name is not valid UTF-8 (each undecodable byte ` +
          'shows as \uFFFD); the file is not counted. Rename it with a UTF-8 name (or have the sender write UTF-8 names) ' +
          'and it is counted.',
      };
    },
  };
}
