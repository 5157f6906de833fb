// Display helpers. Amounts stay integer micros (strings) until shown: never floats for money.

/** '26900000' → '26.9' (USDC micros, 6 decimals), exact. */
export function micros(value) {
  if (value === null || value === undefined) return 'N/A';
  const text = String(value);
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-6).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** 421 → '4.21%'. */
export function bps(value) {
  return value === null || value === undefined ? 'N/A' : `${(value / 100).toFixed(2)}%`;
}

export function time(iso) {
  return iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) : '—';
}

/** A table row from cell values; text only (no HTML from the API is ever parsed). */
export function row(cells) {
  const tr = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell === null || cell === undefined ? '—' : String(cell);
    tr.append(td);
  }
  return tr;
}

export function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
