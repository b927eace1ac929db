import type { ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';

type TConfirmDialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  /** Keeps the confirm button off until the user has done what the dialog asks (e.g. typed the email). */
  confirmDisabled?: boolean;
  error?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
};

/** "Are you sure?" for actions that cannot be undone; Cancel has the focus, so Enter never destroys by accident. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending,
  confirmDisabled = false,
  error,
  onConfirm,
  onCancel,
}: TConfirmDialogProps) {
  return (
    <Dialog open={open} title={title} onClose={onCancel} role="alertdialog">
      <div className="dialog-body">{children}</div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={onConfirm}
          disabled={pending || confirmDisabled}
          aria-busy={pending}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
