/** Error catalogue of the analytics plugin (every code is in the README's error table). */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the analytics routes raise. */
export const analyticsErrors = defineErrorCatalogue({
  ANALYTICS_TOO_MANY_POINTS: {
    status: 400,
    message:
      'granularity {granularity} over this window gives {points} points, more than {max}; choose a coarser granularity or a shorter window.',
  },
  ANALYTICS_EXPORTS_BUSY: {
    status: 429,
    message: '{max} CSV exports are streaming already; retry in {retryAfter} seconds (Retry-After).',
  },
  ANALYTICS_TEMPLATE_NOT_FOUND: { status: 404, message: 'No dashboard template {template}; known templates: {known}.' },
  ANALYTICS_TEMPLATE_PARAMETER_MISSING: {
    status: 400,
    message: 'The {template} dashboard needs the query parameter {parameter}.',
  },
  ANALYTICS_SCHEDULE_NOT_FOUND: { status: 404, message: 'No report schedule {id}.' },
  ANALYTICS_SMTP_NOT_CONFIGURED: {
    status: 409,
    message:
      'Reports cannot be e-mailed: plugins.analytics.smtp is not set in the config file (host, port, secure, user, password, from).',
  },
  ANALYTICS_TIME_ZONE_UNKNOWN: { status: 400, message: 'timeZone {timeZone} is not an IANA time zone (such as Europe/Berlin).' },
});
