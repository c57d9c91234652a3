// A flow's goal: a condition on the run's contact ({field, operator, value}, a condition node's
// config whose field reads the contact). A run whose contact meets it ends, completed.
import { NODE_TYPES } from './nodeTypes.js';

/** The operators a goal takes: the condition node's, as the API serves them. */
export function goalOperators() {
  const field = NODE_TYPES.condition?.fields.find((f) => f.key === 'operator');
  return field?.options?.length ? field.options : ['equals', 'not_equals', 'contains', 'not_contains', 'is_empty', 'is_not_empty'];
}

/** Operators that compare with no value. */
export const VALUELESS = ['is_empty', 'is_not_empty'];

/** The contact field a goal's field template reads ({{contact.lifecycle_stage}}), or ''. */
export function goalFieldKey(goal) {
  const m = /^\{\{\s*contact\.([A-Za-z0-9_.-]+)\s*}}$/.exec(goal?.field || '');
  return m ? m[1] : '';
}

/** The goal with the contact field chosen. */
export function withGoalField(goal, key) {
  return { ...goal, field: key ? `{{contact.${key}}}` : '' };
}

/** The goal as the API stores it: no value for an operator that takes none. */
export function storedGoal(goal) {
  if (!goal) return null;
  const out = { field: goal.field, operator: goal.operator };
  if (!VALUELESS.includes(goal.operator)) out.value = goal.value ?? '';
  return out;
}

/** The goal in words: "lifecycle_stage equals customer". */
export function goalText(goal) {
  if (!goal) return '';
  const field = goalFieldKey(goal) || goal.field;
  const operator = String(goal.operator || '').replaceAll('_', ' ');
  return VALUELESS.includes(goal.operator) ? `${field} ${operator}` : `${field} ${operator} ${goal.value ?? ''}`;
}
