import { useEffect, useRef, useState } from 'react';
import { get, post } from './api.js';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * After a save of an active or paused flow: the runs that wait (or hold) in older versions (the dry run of POST
 * /api/sequences/:id/runs/move), where they would go on in the saved version, and the move itself,
 * followed until it ends, with its report.
 */
export default function MoveRunsDialog({ sequenceId, plan, onClose }) {
  const [move, setMove] = useState(null);
  const [error, setError] = useState(null);
  const first = useRef(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  useEffect(() => {
    if (!move || move.status !== 'running') return undefined;
    const timer = setTimeout(() => {
      get(`/api/sequences/${sequenceId}/runs/moves/${move.move_id}`)
        .then((answer) => setMove(answer.move))
        .catch((e) => setError(e.message));
    }, 500);
    return () => clearTimeout(timer);
  }, [move, sequenceId]);

  const start = () =>
    post(`/api/sequences/${sequenceId}/runs/move`, { to_version: plan.to_version })
      .then((answer) => setMove(answer.move))
      .catch((e) => setError(e.message));

  const waiting = plan.would_move + plan.cannot_move;
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="move-title"
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2 id="move-title">
          {plural(waiting, 'run')} {waiting === 1 ? 'waits' : 'wait'} in older versions
        </h2>
        <p>
          They go on in the version they started with unless moved to version {plan.to_version}. A run
          moves while it waits in a delay or a wait_until, keeping its deadline, or while it holds for
          the flow&apos;s pause, and goes on at the same node of version {plan.to_version}. A held run
          holds on there until the flow is active again.
        </p>
        <ul className="move-plan" aria-label="Where the runs wait">
          {plan.versions.flatMap((version) =>
            version.nodes.map((node) => (
              <li key={`${version.version}/${node.node_id}`}>
                Version {version.version}, {node.node_id ?? 'between nodes'}: {plural(node.runs, 'run')}
                {node.would_move > 0 && ` → ${node.to_node}`}
                {node.cannot_move > 0 && ` (cannot move: ${node.reason})`}
              </li>
            )),
          )}
        </ul>
        {move ? (
          <p role="status" className="move-report">
            {move.status === 'running'
              ? `Moving… ${move.moved} moved, ${move.pending} to go.`
              : `Move ${move.status}: ${plural(move.moved, 'run')} moved, ${move.skipped} skipped${
                  move.skipped
                    ? ` (${Object.entries(move.skipped_reasons)
                        .map(([reason, n]) => `${n}: ${reason}`)
                        .join('; ')})`
                    : ''
                }.`}
          </p>
        ) : null}
        {error && <p className="error">{error}</p>}
        <div className="row">
          <button type="button" ref={first} onClick={onClose}>
            {move ? 'Close' : 'Leave them'}
          </button>
          {!move && plan.would_move > 0 && (
            <button type="button" onClick={start}>
              {`Move ${plural(plan.would_move, 'run')} to version ${plan.to_version}`}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
