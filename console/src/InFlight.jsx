// What a pause or an archive does to a flow's runs in progress, the designer's choice every time,
// sent as the status change's in_flight (docs/automations.md, "Runs in progress").

const CHOICES = [
  ['continue', 'Let them finish', 'each run goes on to its end'],
  [
    'hold',
    'Hold them',
    'each finishes the step it is in and waits before its next one until the flow is active again',
  ],
  ['end', 'End them now', 'each stops at its next safe point, cancelled; a step that is acting finishes first'],
];

/** The choices a pause offers (finish, hold, end); an archive offers finish or end. */
export function inFlightChoices(kind) {
  return CHOICES.filter(([value]) => kind === 'pause' || value !== 'hold');
}

/** What is chosen at first: as the API does without a choice, a pause lets runs finish, an archive ends them. */
export function defaultInFlight(kind) {
  return kind === 'pause' ? 'continue' : 'end';
}

/**
 * The question's radio group: what becomes of the runs in progress. Absent when the flow has none
 * (running 0); shown when their number cannot be read with the key (running null).
 */
export function InFlightChoice({ kind, running, value, onChange }) {
  if (running === 0) return null;
  const name = `in-flight-${kind}`;
  return (
    <fieldset className="in-flight">
      <legend>{running ? `Its ${running} run${running === 1 ? '' : 's'} in progress:` : 'Its runs in progress:'}</legend>
      {inFlightChoices(kind).map(([choice, label, what]) => (
        <label key={choice}>
          <input type="radio" name={name} value={choice} checked={value === choice} onChange={() => onChange(choice)} />{' '}
          <strong>{label}</strong>: {what}
        </label>
      ))}
    </fieldset>
  );
}

/** The status change's body: the status, and what becomes of the runs in progress when asked. */
export function statusChange(status, inFlight) {
  return inFlight ? { status, in_flight: inFlight } : { status };
}
