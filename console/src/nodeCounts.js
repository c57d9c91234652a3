// Where a flow's runs are: the counts per node of its saved version (GET /api/sequences/:id/stats),
// drawn on the canvas's cards. Read with the automation_runs:read scope; without it the canvas
// shows no counts.
import { useCallback, useEffect, useState } from 'react';
import { can, get } from './api.js';

const PARTS = [
  ['waiting', 'waiting'],
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['skipped', 'skipped'],
  ['goal_met', 'met the goal'],
];

/**
 * A node's counts in words, the zeros left out: "3 waiting · 40 passed · 1 failed", and a split's
 * runs per branch after them ("A 20 · B 22"); empty when no run reached the node.
 */
export function countsText(counts) {
  if (!counts) return '';
  const said = PARTS.filter(([key]) => counts[key] > 0).map(([key, words]) => `${counts[key]} ${words}`);
  const branches = (counts.branches || []).filter((b) => b.passed > 0).map((b) => `${b.label} ${b.passed}`);
  return [...said, ...branches].join(' · ');
}

/** The current version's counts by node id, from an answer of the stats endpoint. */
export function countsByNode(answer) {
  const current = (answer?.versions || []).find((v) => v.current);
  const byNode = {};
  for (const node of current?.nodes || []) byNode[node.node_id] = node;
  return byNode;
}

/**
 * {byNode, refresh} for the flow's editor: fetched when the flow opens, when its saved version
 * changes and when asked (refresh); counts a key may not read stay empty.
 */
export function useNodeCounts(me, sequenceId, version) {
  const [byNode, setByNode] = useState({});
  const [tick, setTick] = useState(0);
  const readable = can(me, 'automation_runs:read');
  useEffect(() => {
    if (!readable || !version) return undefined;
    let live = true;
    get(`/api/sequences/${sequenceId}/stats`)
      .then((answer) => live && setByNode(countsByNode(answer)))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [readable, sequenceId, version, tick]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { byNode, refresh: readable ? refresh : null };
}
