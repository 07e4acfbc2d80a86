/**
 * The service's HTML escaper, for pages and reports built as text: `&`, `<`, `>`, `"` and `'` become entities, so a
 * value that came from a message, a file name or a user (an interface named `<script>`) is shown, never run.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The value as text safe inside an HTML element or a quoted attribute. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
