// Durations and moments in the units a person reads: "450 ms", "12 s", "3 min 20 s", "2 h 5 min", "3 d 4 h"; and
// "5 min ago" for a moment in the past.

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

/** A duration in milliseconds as text, in its largest unit and the one below it ('–' for none). */
export function formatDuration(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1_000) return `${sign}${Math.round(rest)} ms`;
  if (rest < 10_000) return `${sign}${(rest / 1_000).toFixed(1)} s`;
  const parts = [];
  for (const [unit, size] of UNITS) {
    if (parts.length === 0 && rest < size) continue;
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count} ${unit}`);
    if (parts.length === 2) break;
  }
  return sign + parts.filter((part) => !part.startsWith('0 ')).join(' ');
}

/** How long ago a moment was ("5 min ago", "just now"); 'never' for none. */
export function formatAgo(iso, now = Date.now()) {
  if (!iso) return 'never';
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return '–';
  if (ms < 5_000 && ms > -5_000) return 'just now';
  return ms > 0 ? `${formatDuration(ms)} ago` : `in ${formatDuration(-ms)}`;
}

/** A moment as the reader's local date and time ('–' for none). */
export function formatTime(iso) {
  return iso ? new Date(iso).toLocaleString() : '–';
}
