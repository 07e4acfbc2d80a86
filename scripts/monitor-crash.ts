/**
 * Full-size crash run of the monitor (5,000 files, 5 kills by default):
 * `node --import tsx scripts/monitor-crash.ts [files] [kills]`. Prints the result as JSON; exits 1 on a miscount.
 */
import { runCrashScenario } from './monitor-crash-scenario.ts';

const files = Number(process.argv[2] ?? 5000);
const kills = Number(process.argv[3] ?? 5);
const result = await runCrashScenario({ files, kills, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${JSON.stringify(result)}\n`);
const exact =
  result.ledgerRows === result.filesWritten &&
  result.ledgerPathsCountedTwice === 0 &&
  result.ledgerMessages === result.messagesWritten &&
  result.messageRows === result.messagesWritten &&
  result.distinctControlIds === result.messagesWritten &&
  result.rollupMessages === result.messagesWritten;
process.stdout.write(exact ? 'exact: every file once, every message once\n' : 'MISCOUNT\n');
process.exit(exact ? 0 : 1);
