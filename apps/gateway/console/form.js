import { h } from '/console/dom.js';

/** A labelled form field: the label, then the control (field errors are inserted right after it). */
export function field(label, control, hint) {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: control.id }, label),
    control,
    hint ? h('p', { class: 'hint' }, hint) : null,
  );
}

/** A <select> of `options` ([value, label] pairs or plain values). */
export function select(id, options, value = '') {
  return h(
    'select',
    { id, name: id },
    options.map((option) => {
      const [v, label] = Array.isArray(option) ? option : [option, option];
      return h('option', { value: v, selected: v === value }, label);
    }),
  );
}

/** Disables a submit button while `work` runs, with a busy label. */
export async function busy(button, label, work) {
  const before = button.textContent;
  button.disabled = true;
  button.textContent = label;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.textContent = before;
  }
}
