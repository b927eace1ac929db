import { useEffect, useId, useRef, type ReactNode } from 'react';

type TDialogProps = {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Alert dialogs (confirmations) are announced as such. */
  role?: 'dialog' | 'alertdialog';
};

/**
 * A modal on the native <dialog>: focus moves into it and back, Escape closes it, the page behind is inert.
 */
export function Dialog({ open, title, onClose, children, role = 'dialog' }: TDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>
  );
}
