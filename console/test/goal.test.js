import { describe, expect, it } from 'vitest';
import { goalFieldKey, goalText, storedGoal, withGoalField } from '../src/goal.js';

describe('a flow goal', () => {
  const customer = { field: '{{contact.lifecycle_stage}}', operator: 'equals', value: 'customer' };

  it('reads the contact field its template names', () => {
    expect(goalFieldKey(customer)).toBe('lifecycle_stage');
    expect(goalFieldKey({ field: '{{trigger.plan}}' })).toBe('');
    expect(withGoalField(customer, 'lead_status').field).toBe('{{contact.lead_status}}');
  });

  it('is stored without a value for an operator that takes none', () => {
    expect(storedGoal(customer)).toEqual(customer);
    expect(storedGoal({ ...customer, operator: 'is_not_empty' })).toEqual({
      field: '{{contact.lifecycle_stage}}',
      operator: 'is_not_empty',
    });
    expect(storedGoal(null)).toBeNull();
  });

  it('is said in words', () => {
    expect(goalText(customer)).toBe('lifecycle_stage equals customer');
    expect(goalText({ ...customer, operator: 'is_empty' })).toBe('lifecycle_stage is empty');
  });
});
