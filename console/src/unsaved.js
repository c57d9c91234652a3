// Whether the page holds edits not saved yet; navigation asks before it drops them.

let unsaved = false;

export function setUnsaved(value) {
  unsaved = value;
}

export function hasUnsaved() {
  return unsaved;
}

/** True when there is nothing to lose, or the person agrees to lose it. */
export function mayLeave() {
  return !unsaved || window.confirm('This flow has unsaved changes. Leave and lose them?');
}

window.addEventListener('beforeunload', (event) => {
  if (unsaved) {
    event.preventDefault();
    event.returnValue = '';
  }
});
