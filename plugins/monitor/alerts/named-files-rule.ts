/**
 * Alert rules about files a folder listing found but the monitor does not count (names that are not UTF-8, files the
 * pattern does not match): active while the listing finds any, the message naming the first few quoted and how many
 * more there are (`"a.json", "b.xml" and 12 more`), so it stays short however many files a folder holds.
 */
import type { AlertRule, MonitoredInterface } from '../api.ts';

/** Names listed in an alert's message at most. */
const NAMES_SHOWN = 5;

/** Files of an interface's folder: the first names kept and how many there are. */
export interface NamedFiles {
  names: readonly string[];
  total: number;
}

/** What a rule of named files says. */
export interface NamedFilesWording {
  key: string;
  severity: 'warning' | 'info';
  title(total: number, monitored: MonitoredInterface): string;
  /** `listed`: the first names quoted, with "and N more". */
  message(listed: string, total: number, monitored: MonitoredInterface): string;
}

/** The first names quoted, then "and N more" when `total` counts more than are shown. */
function listed({ names, total }: NamedFiles): string {
  const shown = names.slice(0, NAMES_SHOWN);
  const more = total > shown.length ? ` and ${total - shown.length} more` : '';
  return `${shown.map((name) => `"${name}"`).join(', ')}${more}`;
}

/** A rule over what the folder watchers found (`filesOf` answers an interface's files, relative to its folder). */
export function namedFilesRule(wording: NamedFilesWording, filesOf: (interfaceId: string) => NamedFiles): AlertRule {
  return {
    key: wording.key,
    async evaluate(monitored) {
      const files = filesOf(monitored.id);
      if (files.total === 0) return { active: false };
      return {
        active: true,
        severity: wording.severity,
        title: wording.title(files.total, monitored),
        message: wording.message(listed(files), files.total, monitored),
      };
    },
  };
}
