import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeTypes, outcomesOf, nodeName } from '../src/nodeTypes.js';
import { edgeName, outcomeFor, toCanvas, toFlow, withOutcome } from '../src/flow.js';
import { NODE_TYPES_ANSWER, node } from './fixtures.js';

beforeAll(() => useNodeTypes(NODE_TYPES_ANSWER));

describe('outcomes come from the descriptors', () => {
  it('a condition has the outcomes its type lists, a delay none', () => {
    expect(outcomesOf(node('c', 'condition'))).toEqual(['true', 'false']);
    expect(outcomesOf(node('d', 'delay'))).toEqual([]);
  });

  it('a type whose outcomes are its own has one per configured label, in order, once each', () => {
    const split = node('s', 'split', { branches: [{ label: 'A', percent: 50 }, { label: 'B', percent: 30 }, { label: 'A' }, { label: ' ' }] });
    expect(outcomesOf(split)).toEqual(['A', 'B']);
    expect(outcomesOf(node('s', 'split', {}))).toEqual([]);
  });

  it('a new edge takes the outcome of its handle, else the first one free', () => {
    const condition = node('c', 'condition');
    expect(outcomeFor(condition, [], null)).toBe('true');
    expect(outcomeFor(condition, [{ source: 'c', target: 'x', label: 'true' }], null)).toBe('false');
    expect(outcomeFor(condition, [], 'false')).toBe('false');
    expect(outcomeFor(condition, [], 'maybe')).toBe('true');
    expect(outcomeFor(node('d', 'delay'), [], 'true')).toBeUndefined();
  });
});

describe('the canvas and its drawing', () => {
  const canvas = {
    nodes: [node('hook', 'webhook_trigger', {}, 'Signup'), node('plan', 'condition', {}, 'Is it pro?'), node('mail', 'email', {}, 'Welcome')],
    edges: [
      { id: 'e1', source: 'hook', target: 'plan', type: 'default', label: null },
      { id: 'e2', source: 'plan', target: 'mail', type: 'conditional', label: 'false' },
    ],
  };

  it('an edge leaves from the handle of its outcome and is named by its nodes’ labels', () => {
    const { nodes, edges } = toFlow(canvas);
    expect(edges[1].sourceHandle).toBe('false');
    expect(edges[0].sourceHandle).toBeNull();
    expect(edges[1].ariaLabel).toBe('Connection from Condition “Is it pro?” to Email “Welcome”, on false');
    expect(edgeName(edges[0], nodes)).toBe('Connection from Webhook trigger “Signup” to Condition “Is it pro?”');
    expect(nodeName(nodes[0])).toBe('Webhook trigger “Signup”');
  });

  it('comes back as it was stored', () => {
    const { nodes, edges } = toFlow(canvas);
    expect(toCanvas(nodes, edges)).toEqual(canvas);
  });

  it('changing an edge’s outcome moves its label and its handle', () => {
    const { nodes, edges } = toFlow(canvas);
    const changed = withOutcome(edges, 'e2', 'true', nodes);
    expect(changed[1].label).toBe('true');
    expect(changed[1].sourceHandle).toBe('true');
    expect(toCanvas(nodes, changed).edges[1]).toMatchObject({ type: 'conditional', label: 'true' });
    expect(changed[0]).toBe(edges[0]);
  });
});
