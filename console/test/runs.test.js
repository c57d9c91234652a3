import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeTypes } from '../src/nodeTypes.js';
import { branchesTaken, contactIdOf, inWords, notReached } from '../src/Runs.jsx';
import { NODE_TYPES_ANSWER, node } from './fixtures.js';

beforeAll(() => useNodeTypes(NODE_TYPES_ANSWER));

const canvas = {
  nodes: [node('hook', 'webhook_trigger', {}, 'Signup'), node('crm-update-mx0s', 'condition', {}, 'Is it pro?'), node('pro', 'email', {}, 'Pro mail'), node('free', 'email', {}, 'Free mail')],
  edges: [
    { id: 'e1', source: 'hook', target: 'crm-update-mx0s' },
    { id: 'e2', source: 'crm-update-mx0s', target: 'pro', label: 'true' },
    { id: 'e3', source: 'crm-update-mx0s', target: 'free', label: 'false' },
  ],
};

describe('runs in the designer’s words', () => {
  it('an error names its node by label, not by id', () => {
    expect(inWords('node crm-update-mx0s (condition) failed: boom', canvas.nodes)).toBe('“Is it pro?” failed: boom');
    expect(inWords('pro timed out after free', canvas.nodes)).toBe('“Pro mail” timed out after “Free mail”');
    expect(inWords('a process stopped', canvas.nodes)).toBe('a process stopped');
  });

  it('a node a cancelled run never reached is not a branch not taken', () => {
    expect(notReached('cancelled').card).toBe('not reached: the run was cancelled');
    expect(notReached('failed').card).toBe('not reached: the run failed');
    expect(notReached('completed').card).toBe('skipped: branch not taken');
  });

  it('the branch of a run is the outcome edges between the nodes it reached', () => {
    expect(branchesTaken(canvas, ['hook', 'crm-update-mx0s', 'pro'])).toEqual(['Is it pro? → true']);
    expect(branchesTaken(canvas, null)).toEqual([]);
  });

  it('the contact of a run is its payload’s contact_id, or a CRM event’s', () => {
    expect(contactIdOf({ contact_id: 'c-1' })).toBe('c-1');
    expect(contactIdOf({ data: { contact_id: 'c-2' } })).toBe('c-2');
    expect(contactIdOf({ email: 'a@b' })).toBeNull();
  });
});
