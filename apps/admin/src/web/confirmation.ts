import { useState } from 'react';

/**
 * The row an action waits to be confirmed for. Asking clears the action's last error, so the dialog does not open
 * on the failure of an earlier row.
 */
export function useConfirmation<TTarget>(action: { reset: () => void }) {
  const [target, setTarget] = useState<TTarget | undefined>();
  return {
    target,
    ask: (next: TTarget) => {
      action.reset();
      setTarget(next);
    },
    dismiss: () => setTarget(undefined),
  };
}
