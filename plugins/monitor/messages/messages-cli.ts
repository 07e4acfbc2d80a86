/**
 * `workbench messages list` and `workbench messages show`: the message routes on the command line, reading the
 * store of this machine's configuration. `list` prints a page of summaries (or the page as JSON) and the cursor of
 * the next; `show` prints a message's facts, its findings with their places and its file, and its raw text with
 * `--raw` (as `plugins.monitor.rawAccess` allows; each view is written to the audit trail as the operating-system
 * user who ran it).
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { CliIo, PluginCommand } from '../../../kernel/plugin-api.ts';
import { messageListQuery, type MessageSummary, type MessageView } from './message-schemas.ts';
import type { MessageViewer, MessageViews } from './message-view.ts';

function localViewer(): MessageViewer {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no user name on this system
  }
  // the person at this machine can read the store's files: the same as an admin
  return { actor: `os:${user}`, actorKind: 'local', admin: true };
}

/** A refused argument or a refused request, as one line and exit code 2 (a WorkbenchError says what is wrong). */
function failed(io: CliIo, error: unknown): number {
  const { message, code } = error as { message?: string; code?: string };
  io.err(code ? `${code}: ${message}` : `Error: ${message ?? String(error)}`);
  return 2;
}

function summaryLine(m: MessageSummary): string {
  const finding = m.firstFinding ? `${m.firstFinding.code} at ${m.firstFinding.path}` : '';
  return [m.receivedAt, m.id, m.interfaceName ?? m.interfaceId, m.messageType ?? '-', m.controlId ?? '-', m.status, m.fileName ?? '-', finding]
    .join('  ')
    .trimEnd();
}

function placeText(position: MessageView['findings'][number]['position']): string {
  if (!position) return 'not placed';
  const where = position.segment
    ? `segment ${position.segmentIndex} ${position.segment}${position.field === null ? '' : ` field ${position.field}`}`
    : (position.element ?? '');
  return `${where} chars ${position.start}-${position.end}${position.exact ? '' : ' (absent: where it belongs)'}`;
}

/** The message commands over the views the routes answer with. */
export function createMessageCommands(views: MessageViews): PluginCommand[] {
  return [
    {
      name: 'messages list',
      async run(args, io) {
        let values;
        try {
          ({ values } = parseArgs({
            args,
            strict: true,
            options: {
              interface: { type: 'string' },
              status: { type: 'string' },
              type: { type: 'string' },
              'error-code': { type: 'string' },
              patient: { type: 'string' },
              account: { type: 'string' },
              'control-id': { type: 'string' },
              file: { type: 'string' },
              q: { type: 'string' },
              since: { type: 'string' },
              until: { type: 'string' },
              limit: { type: 'string' },
              cursor: { type: 'string' },
              json: { type: 'boolean' },
            },
          }));
        } catch (error) {
          return failed(io, error);
        }
        const checked = messageListQuery.safeParse({
          interfaceId: values.interface,
          status: values.status,
          messageType: values.type,
          errorCode: values['error-code'],
          patientId: values.patient,
          accountNumber: values.account,
          controlId: values['control-id'],
          fileName: values.file,
          q: values.q,
          since: values.since,
          until: values.until,
          limit: values.limit,
          cursor: values.cursor,
        });
        if (!checked.success) {
          const issue = checked.error.issues[0];
          io.err(`MESSAGE_FILTER_INVALID: ${issue?.path.join('.') || 'query'}: ${issue?.message}`);
          return 2;
        }
        try {
          const page = await views.list(checked.data, localViewer());
          if (values.json) io.out(JSON.stringify(page));
          else {
            for (const item of page.items) io.out(summaryLine(item));
            io.out(page.next ? `next page: --cursor ${page.next}` : `${page.items.length} message(s); no more`);
          }
          return 0;
        } catch (error) {
          return failed(io, error);
        }
      },
    },
    {
      name: 'messages show',
      async run(args, io) {
        let parsed;
        try {
          parsed = parseArgs({ args, strict: true, allowPositionals: true, options: { raw: { type: 'boolean' }, json: { type: 'boolean' } } });
        } catch (error) {
          return failed(io, error);
        }
        const [id, extra] = parsed.positionals;
        if (id === undefined || extra !== undefined) {
          io.err('Usage: workbench messages show ID [--raw] [--json]');
          return 2;
        }
        try {
          const view = await views.show(id, localViewer(), { withRaw: parsed.values.raw === true });
          if (parsed.values.json) {
            io.out(JSON.stringify(view));
            return 0;
          }
          const m = view.message;
          io.out(`${m.id}  ${m.messageType ?? '-'}  ${m.controlId ?? '-'}  ${m.status}  ${m.interfaceName ?? m.interfaceId}  received ${m.receivedAt}`);
          if (view.file) io.out(`file ${view.file.path} (message ${view.file.indexInFile + 1} of ${view.file.messagesInFile}, ${view.file.size} bytes)`);
          for (const f of view.findings) io.out(`${f.severity} ${f.code} at ${f.path} (${placeText(f.position)}): ${f.message}`);
          if (view.findings.length === 0) io.out('no findings');
          if (view.raw !== null) io.out(view.raw.replace(/\r\n?/g, '\n'));
          else if (view.rawNote) io.out(view.rawNote);
          return 0;
        } catch (error) {
          return failed(io, error);
        }
      },
    },
  ];
}
