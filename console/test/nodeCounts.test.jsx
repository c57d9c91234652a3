import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { ReactFlowProvider } from '@xyflow/react';
import { countsByNode, countsText, useNodeCounts } from '../src/nodeCounts.js';
import { FlowNode } from '../src/FlowNode.jsx';
import { useNodeTypes } from '../src/nodeTypes.js';
import { NODE_TYPES_ANSWER, fakeFetch } from './fixtures.js';

beforeAll(() => useNodeTypes(NODE_TYPES_ANSWER));
afterEach(() => vi.unstubAllGlobals());

const zero = { waiting: 0, passed: 0, failed: 0, skipped: 0, goal_met: 0, branches: null };

const STATS = {
  sequence_id: 's1',
  current_version: 3,
  since: null,
  versions: [
    {
      version: 3,
      current: true,
      runs_in_flight: true,
      nodes: [
        { node_id: 'wait', type: 'delay', label: 'Wait', ...zero, waiting: 4, passed: 12 },
        { node_id: 'ab', type: 'split', label: 'A/B', ...zero, passed: 7, branches: [{ label: 'A', passed: 3 }, { label: 'B', passed: 4 }] },
      ],
    },
    { version: 2, current: false, runs_in_flight: true, nodes: [{ node_id: 'wait', type: 'delay', label: 'Wait', ...zero, waiting: 99 }] },
  ],
};

describe('counts per node on the canvas', () => {
  it('say each non-zero count in words, a split’s branches after them', () => {
    expect(countsText({ ...zero, waiting: 3, passed: 40, failed: 1 })).toBe('3 waiting · 40 passed · 1 failed');
    expect(countsText({ ...zero, skipped: 2, goal_met: 5 })).toBe('2 skipped · 5 met the goal');
    expect(countsText({ ...zero, passed: 7, branches: [{ label: 'A', passed: 3 }, { label: 'B', passed: 0 }] })).toBe('7 passed · A 3');
    expect(countsText(zero)).toBe('');
    expect(countsText(undefined)).toBe('');
  });

  it('are the current version’s, by node id', () => {
    const byNode = countsByNode(STATS);
    expect(Object.keys(byNode)).toEqual(['wait', 'ab']);
    expect(byNode.wait.waiting).toBe(4);
    expect(countsByNode({})).toEqual({});
  });

  it('are drawn on the node’s card, and not at all when no run reached it', () => {
    const { container, rerender } = render(
      <ReactFlowProvider>
        <FlowNode id="wait" type="delay" data={{ label: 'Wait', config: { delayDays: 1 }, counts: STATS.versions[0].nodes[0] }} />
      </ReactFlowProvider>,
    );
    expect(container.querySelector('.node-counts').textContent).toBe('4 waiting · 12 passed');
    rerender(
      <ReactFlowProvider>
        <FlowNode id="wait" type="delay" data={{ label: 'Wait', config: { delayDays: 1 }, counts: zero }} />
      </ReactFlowProvider>,
    );
    expect(container.querySelector('.node-counts')).toBeNull();
  });

  it('are read for the saved version, again when asked, and not without the runs scope', async () => {
    const fetch = fakeFetch({ 'GET /api/sequences/s1/stats': STATS });
    vi.stubGlobal('fetch', fetch);
    const me = { scopes: ['automation_runs:read'] };
    const { result } = renderHook(() => useNodeCounts(me, 's1', 3));
    await waitFor(() => expect(result.current.byNode.wait?.waiting).toBe(4));
    act(() => result.current.refresh());
    await waitFor(() => expect(fetch.calls.filter((c) => c.path === '/api/sequences/s1/stats')).toHaveLength(2));

    const denied = fakeFetch({ 'GET /api/sequences/s1/stats': STATS });
    vi.stubGlobal('fetch', denied);
    const blind = renderHook(() => useNodeCounts({ scopes: ['sequences:read'] }, 's1', 3));
    expect(blind.result.current.refresh).toBeNull();
    expect(blind.result.current.byNode).toEqual({});
    expect(denied.calls).toHaveLength(0);
    expect(screen.queryByText(/waiting/)).toBeNull();
  });
});
