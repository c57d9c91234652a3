import { useEffect, useRef } from 'react';

/**
 * A question before an action that cannot be taken back, saying what it does: Cancel has the focus
 * (Enter does not go ahead by accident), Escape cancels.
 */
export default function Confirm({ title, confirm, danger = true, onCancel, onConfirm, children }) {
  const cancel = useRef(null);
  useEffect(() => {
    cancel.current?.focus();
  }, []);
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="question-title"
        aria-describedby="question-body"
        onKeyDown={(e) => e.key === 'Escape' && onCancel()}
      >
        <h2 id="question-title">{title}</h2>
        <div id="question-body">{children}</div>
        <div className="row">
          <button type="button" ref={cancel} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm}>
            {confirm}
          </button>
        </div>
      </div>
    </div>
  );
}
