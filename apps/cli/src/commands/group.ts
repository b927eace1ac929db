import { Command } from 'commander';
import { usageError } from './support.ts';

/**
 * A command whose actions are subcommands (`keys create`, `webhooks test`): commander dispatches a known action;
 * a missing or unknown one is wrong usage in the house's words.
 */
export function commandGroup(name: string, actions: Command[]): Command {
  const group = new Command(name)
    .argument('[action]')
    .allowExcessArguments()
    .action((action: string | undefined) => {
      const names = actions.map((command) => command.name());
      const list = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
      throw usageError(
        action ? `unknown ${name} action ${JSON.stringify(action)}` : `${name} needs an action: ${list}`,
      );
    });
  for (const action of actions) group.addCommand(action);
  return group;
}
