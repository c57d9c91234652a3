import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeTypes } from '../src/nodeTypes.js';
import { variableGroups, fieldPaths } from '../src/variables.js';
import { outputNamesBefore } from '../src/graph.js';
import { NODE_TYPES_ANSWER, node } from './fixtures.js';

beforeAll(() => useNodeTypes(NODE_TYPES_ANSWER));

// hook → call A → (plan) → call B → mail; a call C on a branch that does not reach mail
const nodes = [
  node('hook', 'webhook_trigger', {}, 'Signup', { x: 0, y: 0 }),
  node('a', 'http_request', {}, 'Call A', { x: 0, y: 100 }),
  node('plan', 'condition', {}, 'Is it pro?', { x: 0, y: 200 }),
  node('b', 'http_request', {}, 'Call B', { x: 0, y: 300 }),
  node('c', 'http_request', {}, 'Call C', { x: 300, y: 300 }),
  node('map', 'data_transform', { transformType: 'map', mappings: { full: '{{contact.first_name}}', plan: 'x' } }, 'Shape', { x: 0, y: 400 }),
  node('mail', 'email', {}, 'Welcome', { x: 0, y: 500 }),
];
const edges = [
  { source: 'hook', target: 'a' },
  { source: 'a', target: 'plan' },
  { source: 'plan', target: 'b', label: 'true' },
  { source: 'plan', target: 'c', label: 'false' },
  { source: 'b', target: 'map' },
  { source: 'map', target: 'mail' },
];

describe('what a node can read', () => {
  it('earlier nodes by the names templates give them: the n-th of a type in the run’s order', () => {
    expect(outputNamesBefore('mail', nodes, edges).map((x) => [x.node.id, x.name])).toEqual([
      ['a', 'http_request_1'],
      ['plan', 'condition_1'],
      ['b', 'http_request_2'],
      ['map', 'data_transform_1'],
    ]);
  });

  it('the trigger sample’s fields, the contact’s, its custom fields by label and each output’s fields', () => {
    const groups = variableGroups('mail', nodes, edges, {
      sample: { plan: 'pro', deal: { amount: 1200, owner: { name: 'Ada' } } },
      customFields: [{ field_key: 'shoe_size', field_label: 'Shoe size' }],
      runOutputs: { b: { statusCode: 201, body: { id: 'x-1' } } },
    });
    const byLabel = Object.fromEntries(groups.map((g) => [g.label, g.items]));
    const trigger = groups[0].items;
    expect(groups[0].label).toMatch(/sample/);
    expect(trigger.map((v) => [v.path, v.sample])).toEqual([
      ['trigger.plan', 'pro'],
      ['trigger.deal.amount', '1200'],
      ['trigger.deal.owner.name', 'Ada'],
    ]);
    expect(byLabel.Contact.map((v) => v.path)).toEqual(['contact.contact_id', 'contact.email', 'contact.first_name', 'contact.lifecycle_stage']);
    expect(byLabel['Contact: custom fields']).toEqual([{ path: 'contact.custom_fields.shoe_size', label: 'Shoe size' }]);
    const second = byLabel['HTTP request “Call B” · http_request_2'];
    expect(second.map((v) => [v.path, v.sample])).toEqual([
      ['http_request_2.statusCode', '201'],
      ['http_request_2.body', undefined],
      ['http_request_2.body.id', 'x-1'],
    ]);
    expect(byLabel['Data transform “Shape” · data_transform_1'].map((v) => v.path)).toEqual([
      'data_transform_1.full',
      'data_transform_1.plan',
      'data_transform_1.count',
    ]);
    // a node on another branch is no source
    expect(groups.some((g) => g.label.includes('Call C'))).toBe(false);
  });

  it('without a sample, the trigger says how to get one', () => {
    const [trigger] = variableGroups('a', nodes, edges, {});
    expect(trigger.label).toMatch(/send a test event/);
    expect(trigger.items).toEqual([{ path: 'trigger', label: 'the whole payload' }]);
  });

  it('nested fields are listed to three levels', () => {
    expect(fieldPaths({ a: { b: { c: { d: 1 } } } }, 'x').map((p) => p.path)).toEqual(['x.a.b.c']);
  });
});
