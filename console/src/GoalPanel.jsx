import { CONTACT_FIELDS } from './nodeTypes.js';
import { goalFieldKey, goalOperators, goalText, VALUELESS, withGoalField } from './goal.js';

/**
 * The flow's goal in its settings: a condition on the run's contact. A run whose contact meets it
 * ends at once, completed, even while it waits in a delay; none is the default.
 */
export default function GoalPanel({ goal, onChange }) {
  const fieldKey = goalFieldKey(goal);
  const fields = CONTACT_FIELDS.filter((f) => f.key !== 'custom_fields');
  return (
    <section className="goal-panel" aria-label="Goal">
      <h2>Goal</h2>
      {!goal ? (
        <>
          <p className="hint">No goal: every run goes to its last node.</p>
          <button
            type="button"
            onClick={() => onChange({ field: '{{contact.lifecycle_stage}}', operator: 'equals', value: '' })}
          >
            Set a goal
          </button>
        </>
      ) : (
        <>
          <p className="field-help">A run whose contact meets the goal ends at once, completed, even while it waits.</p>
          <div className="field">
            <label htmlFor="goal-field">Contact field</label>
            <select id="goal-field" value={fieldKey} onChange={(e) => onChange(withGoalField(goal, e.target.value))}>
              {!fieldKey && <option value="">—</option>}
              {fieldKey && !fields.some((f) => f.key === fieldKey) && <option value={fieldKey}>{fieldKey}</option>}
              {fields.map((f) => (
                <option key={f.key} value={f.key}>
                  {f.label || f.key}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="goal-operator">Operator</label>
            <select id="goal-operator" value={goal.operator || ''} onChange={(e) => onChange({ ...goal, operator: e.target.value })}>
              {goalOperators().map((o) => (
                <option key={o} value={o}>
                  {o.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
          </div>
          {!VALUELESS.includes(goal.operator) && (
            <div className="field">
              <label htmlFor="goal-value">Value</label>
              <input id="goal-value" value={goal.value ?? ''} onChange={(e) => onChange({ ...goal, value: e.target.value })} />
            </div>
          )}
          <p className="goal-summary">Ends runs when {goalText(goal)}.</p>
          <button type="button" className="danger" onClick={() => onChange(null)}>
            Remove goal
          </button>
        </>
      )}
    </section>
  );
}
