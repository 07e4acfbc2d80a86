/**
 * Routes of stored messages (monitor base): the message list (filters, full-text search of retained raw text, keyset
 * pages) and one message's view (facts, raw text by `plugins.monitor.rawAccess`, findings placed in the text, the
 * file it came from). Both read through the query contract; a view of raw text is written to the audit trail.
 */
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { MONITOR_ADMIN_ROLE, type Principal } from '../../../kernel/auth/principal.ts';
import { auditContextOf } from '../../audit/api.ts';
import { MESSAGE_EXAMPLES } from './message-examples.ts';
import { messageIdParams, messageListQuery, messageListSchema, messageViewSchema } from './message-schemas.ts';
import type { MessageViewer, MessageViews } from './message-view.ts';

/** The caller of a request as a viewer of messages. */
function viewerOf(request: { principal?: Principal; requestId: string; sourceAddress: string }): MessageViewer {
  return { ...auditContextOf(request), admin: request.principal?.roles.includes(MONITOR_ADMIN_ROLE) ?? false };
}

/** Registers the message routes. */
export function registerMessageRoutes(routes: RouteRegistrar, views: MessageViews): void {
  routes.route({
    method: 'GET',
    url: '/api/monitor/messages',
    examples: MESSAGE_EXAMPLES.listMessages,
    summary: 'Stored messages, newest last: filters, full-text search of retained raw text (q), keyset pages (cursor)',
    description:
      'Every filter narrows (AND); interfaceId, messageType and errorCode take several values separated by commas. ' +
      'q finds messages whose retained raw text holds every word (letters and digits) through the database\'s ' +
      'full-text index. The answer never holds raw text; `next` is the cursor of the following page.',
    tags: ['monitor'],
    tier: 'professional',
    minimumRole: 'MonitorViewer',
    query: messageListQuery,
    errors: ['MESSAGE_FILTER_INVALID', 'MESSAGE_CURSOR_INVALID'],
    response: messageListSchema,
    handler: (request) => views.list(request.query, viewerOf(request)),
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/messages/:id',
    examples: MESSAGE_EXAMPLES.getMessage,
    summary: 'One stored message: facts, raw text while retained, findings placed in the text, and its file',
    description:
      'raw is null when retention removed it (rawState expired) or plugins.monitor.rawAccess withholds it from the ' +
      'caller (withheld); rawNote says which. Each finding carries its position: segment index, field, repetition, ' +
      'component and the character range [start, end) in raw. Every view of raw text is written to the audit trail.',
    tags: ['monitor'],
    tier: 'professional',
    minimumRole: 'MonitorViewer',
    params: messageIdParams,
    errors: ['MESSAGE_FILTER_INVALID', 'NOT_FOUND'],
    response: messageViewSchema,
    handler: (request) => views.show(request.params.id, viewerOf(request)),
  });
}
