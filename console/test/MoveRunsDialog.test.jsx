import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MoveRunsDialog from '../src/MoveRunsDialog.jsx';
import { fakeFetch } from './fixtures.js';

beforeEach(() => {
  sessionStorage.setItem('crmflow.apiKey', 'k');
});
afterEach(() => vi.unstubAllGlobals());

// the dry run of a paused flow: one run waits in its delay, two hold before the email, one holds
// before a node version 2 has not
const PLAN = {
  dry_run: true,
  to_version: 2,
  from_versions: [1],
  would_move: 3,
  cannot_move: 1,
  versions: [
    {
      version: 1,
      runs: 4,
      nodes: [
        { node_id: 'wait', node_type: 'delay', runs: 1, would_move: 1, to_node: 'wait', cannot_move: 0, reason: null },
        { node_id: 'mail', node_type: 'email', runs: 2, would_move: 2, to_node: 'mail', cannot_move: 0, reason: null },
        {
          node_id: 'call',
          node_type: 'http_request',
          runs: 1,
          would_move: 0,
          to_node: null,
          cannot_move: 1,
          reason: 'node call is not in version 2 and is not mapped',
        },
      ],
    },
  ],
};

describe('the move runs dialog', () => {
  it('says held runs move and hold on, lists where runs wait, and reports the move', async () => {
    const user = userEvent.setup();
    const fetch = fakeFetch({
      'POST /api/sequences/s-1/runs/move': {
        status: 202,
        body: {
          move: {
            move_id: 'm-1',
            status: 'completed',
            moved: 3,
            skipped: 1,
            skipped_reasons: { 'node call is not in version 2 and is not mapped': 1 },
            pending: 0,
          },
        },
      },
    });
    vi.stubGlobal('fetch', fetch);
    render(<MoveRunsDialog sequenceId="s-1" plan={PLAN} onClose={() => {}} />);

    expect(screen.getByRole('heading', { name: '4 runs wait in older versions' })).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toHaveTextContent(
      "or while it holds for the flow's pause, and goes on at the same node of version 2. A held run holds on there until the flow is active again.",
    );
    expect(screen.getByRole('list', { name: 'Where the runs wait' }).textContent).toBe(
      'Version 1, wait: 1 run → wait' +
        'Version 1, mail: 2 runs → mail' +
        'Version 1, call: 1 run (cannot move: node call is not in version 2 and is not mapped)',
    );

    await user.click(screen.getByRole('button', { name: 'Move 3 runs to version 2' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Move completed: 3 runs moved, 1 skipped (1: node call is not in version 2 and is not mapped).',
    );
    expect(JSON.parse(fetch.calls[0].body)).toEqual({ to_version: 2 });
  });
});
