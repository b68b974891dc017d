import { h } from '/console/dom.js';

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean'];

/** Rows -> the JSON Schema of an object with one property per named row, all required. */
export function schemaFromRows(rows) {
  const named = rows.filter((row) => row.name.trim());
  const properties = Object.fromEntries(
    named.map((row) => [
      row.name.trim(),
      { type: row.type, ...(row.description.trim() && { description: row.description.trim() }) },
    ]),
  );
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** A JSON Schema -> rows, or null when the rows cannot show it (nested objects, arrays, enums...). */
export function rowsFromSchema(schema) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || schema.type !== 'object') return null;
  const properties = schema.properties ?? {};
  if (typeof properties !== 'object' || Array.isArray(properties)) return null;
  const rows = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!property || typeof property !== 'object' || !FIELD_TYPES.includes(property.type)) return null;
    if (Object.keys(property).some((key) => key !== 'type' && key !== 'description')) return null;
    rows.push({ name, type: property.type, description: property.description ?? '' });
  }
  return rows;
}

/**
 * The output schema editor: rows of name, type and description, and a raw JSON view of the same
 * schema. Editing either updates the other; raw JSON that does not parse is flagged in place, and
 * raw JSON the rows cannot show stays the source of truth until it can be shown again.
 * `schema()` returns {ok: true, schema} (null when no field is named) or {ok: false, message}.
 */
export function schemaEditor() {
  let rows = [{ name: '', type: 'string', description: '' }];
  let raw = false;
  let rawOnly = false; // the raw JSON is valid but has parts the rows cannot show
  const rowsBox = h('div', { class: 'schema-rows', id: 'schema-rows' });
  const rawText = h('textarea', {
    id: 'schema-raw',
    rows: 10,
    spellcheck: 'false',
    hidden: true,
    'aria-label': 'Output schema as JSON Schema',
  });
  const note = h('p', { class: 'hint', 'aria-live': 'polite' });
  const addRow = h('button', { id: 'schema-add-row', type: 'button', class: 'secondary' }, 'Add field');
  const toggle = h(
    'button',
    { id: 'schema-raw-toggle', type: 'button', class: 'secondary', 'aria-pressed': 'false' },
    'Edit raw JSON',
  );

  const setRawError = (message) => {
    rawText.parentElement?.querySelector('[data-local="schema-raw"]')?.remove();
    if (!message) return rawText.removeAttribute('aria-invalid');
    rawText.setAttribute('aria-invalid', 'true');
    rawText.after(
      h(
        'p',
        {
          class: 'error field-error',
          role: 'alert',
          'data-testid': 'field-error',
          'data-field': 'output_schema',
          'data-local': 'schema-raw',
        },
        message,
      ),
    );
  };
  const syncRaw = () => {
    rawText.value = JSON.stringify(schemaFromRows(rows), null, 2);
  };

  const rowElement = (row, index) => {
    const name = h('input', {
      class: 'schema-name',
      type: 'text',
      value: row.name,
      placeholder: 'field_name',
      'aria-label': 'Field name',
    });
    const type = h(
      'select',
      { class: 'schema-type', 'aria-label': 'Field type' },
      FIELD_TYPES.map((t) => h('option', { value: t, selected: t === row.type }, t)),
    );
    const description = h('input', {
      class: 'schema-description',
      type: 'text',
      value: row.description,
      placeholder: 'What the field holds',
      'aria-label': 'Field description',
    });
    const remove = h(
      'button',
      { type: 'button', class: 'secondary small', 'aria-label': 'Remove field', title: 'Remove field' },
      '×',
    );
    const update = () => {
      rows[index] = { name: name.value, type: type.value, description: description.value };
      syncRaw();
    };
    name.addEventListener('input', update);
    type.addEventListener('change', update);
    type.addEventListener('input', update);
    description.addEventListener('input', update);
    remove.addEventListener('click', () => {
      rows.splice(index, 1);
      drawRows();
      syncRaw();
    });
    return h('div', { class: 'schema-row', 'data-testid': 'schema-row' }, name, type, description, remove);
  };
  const drawRows = () => rowsBox.replaceChildren(...rows.map(rowElement));

  addRow.addEventListener('click', () => {
    rows.push({ name: '', type: 'string', description: '' });
    drawRows();
    syncRaw();
    rowsBox.lastElementChild?.querySelector('.schema-name')?.focus();
  });

  rawText.addEventListener('input', () => {
    let parsed;
    try {
      parsed = JSON.parse(rawText.value);
    } catch (error) {
      setRawError(`Not valid JSON: ${error.message}`);
      return;
    }
    setRawError('');
    const fromRaw = rowsFromSchema(parsed);
    rawOnly = fromRaw === null;
    note.textContent = rawOnly
      ? 'The rows cannot show this schema (nested or non-scalar fields); it is sent as written.'
      : '';
    if (!rawOnly) {
      rows = fromRaw;
      drawRows();
    }
  });

  const setMode = (toRaw) => {
    if (!toRaw && (rawText.getAttribute('aria-invalid') === 'true' || rawOnly)) {
      note.textContent = rawOnly
        ? 'The rows cannot show this schema; keep editing the raw JSON.'
        : 'Fix the JSON first: the rows show only a valid schema.';
      return;
    }
    raw = toRaw;
    if (raw && !rawOnly) syncRaw();
    rawText.hidden = !raw;
    rowsBox.hidden = raw;
    addRow.hidden = raw;
    toggle.textContent = raw ? 'Edit as rows' : 'Edit raw JSON';
    toggle.setAttribute('aria-pressed', String(raw));
    if (!raw) note.textContent = '';
  };
  toggle.addEventListener('click', () => setMode(!raw));

  drawRows();
  syncRaw();

  return {
    element: h(
      'div',
      { class: 'schema-editor' },
      rowsBox,
      rawText,
      note,
      h('div', { class: 'actions left' }, addRow, toggle),
    ),
    /** Where an output_schema error goes: after the view in use. */
    target: () => (raw ? rawText : rowsBox),
    schema() {
      if (!raw)
        return rows.some((row) => row.name.trim())
          ? { ok: true, schema: schemaFromRows(rows) }
          : { ok: true, schema: null };
      if (!rawText.value.trim()) return { ok: true, schema: null };
      try {
        return { ok: true, schema: JSON.parse(rawText.value) };
      } catch (error) {
        return { ok: false, message: `Not valid JSON: ${error.message}` };
      }
    },
    showRawError: setRawError,
  };
}
