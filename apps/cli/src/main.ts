/**
 * The `careers` command line (`pnpm careers …` from the repository root); `pnpm careers help` lists the commands
 * (commands/support.ts `USAGE`), each group is a file under commands/.
 *
 * Database commands need DATABASE_URL. Expected failures print one line to stderr and exit 1 (2 for
 * wrong usage); no stack traces unless CAREERS_DEBUG=1.
 */
import { Command, CommanderError } from 'commander';
import { isAppError } from '@careers/core/contract';
import { databaseCommands } from './commands/database.ts';
import { keysCommand } from './commands/keys.ts';
import { privacyCommand } from './commands/privacy.ts';
import { CliError, type TOutput, USAGE, usageError } from './commands/support.ts';
import { webhooksCommand } from './commands/webhooks.ts';
import { cliEnv } from './env.ts';

const COMMANDS = ['migrate', 'import', 'keys', 'webhooks', 'privacy', 'demo-document'];

function program(io: TOutput): Command {
  const root = new Command('careers');
  for (const command of [...databaseCommands(io), keysCommand(io), webhooksCommand(io), privacyCommand(io)])
    root.addCommand(command);
  // Every command answers wrong usage the same way (CommanderError → exit 2 with the usage), and has no help of its own.
  const configure = (command: Command): void => {
    command
      .exitOverride()
      .helpOption(false)
      .helpCommand(false)
      .showSuggestionAfterError(false)
      .configureOutput({
        writeOut: (text) => io.out(text.trimEnd()),
        writeErr: (text) => io.err(text.trimEnd()),
        outputError: () => {},
      });
    for (const child of command.commands) configure(child);
  };
  configure(root);
  return root;
}

export async function runCli(argv: string[], io: TOutput): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  try {
    if (!COMMANDS.includes(command)) throw usageError(`unknown command ${JSON.stringify(command)}`);
    await program(io).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof CommanderError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof Error && error.name === 'TenantDocumentError') {
      io.err(`error: the document was refused, nothing was written: ${error.message}`);
      return 1;
    }
    if (isAppError(error)) {
      const details = error.fieldErrors ? Object.values(error.fieldErrors).flat().join(' ') : '';
      io.err(`error: ${error.message}${details ? ` ${details}` : ''}`);
      return 1;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    if (cliEnv().CAREERS_DEBUG === '1' && error instanceof Error && error.stack) io.err(error.stack);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
