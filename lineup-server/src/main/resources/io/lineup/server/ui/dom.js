// Building the page from data without ever parsing data as HTML: every text from the server goes
// through text nodes (textContent), attributes are set one by one, and no event handler is ever
// given as text.

/**
 * Creates an element. props: {class, id, title, href, type, value, placeholder, disabled, hidden,
 * data: {name: value}, attrs: {name: value}, on: {event: function}}. Children: strings and numbers
 * become text nodes; null and false are skipped; arrays are flattened.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  const p = props || {};
  for (const [key, value] of Object.entries(p)) {
    if (value === undefined || value === null) continue;
    if (key === 'class') el.className = value;
    else if (key === 'data') for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    else if (key === 'on') for (const [k, v] of Object.entries(value)) el.addEventListener(k, v);
    else if (key === 'attrs') for (const [k, v] of Object.entries(value)) setAttr(el, k, v);
    else if (key === 'hidden' || key === 'disabled') el[key] = Boolean(value);
    else if (key === 'value') el.value = String(value);
    else setAttr(el, key, value);
  }
  append(el, children);
  return el;
}

function setAttr(el, name, value) {
  if (/^on/i.test(name) || name.toLowerCase() === 'srcdoc') {
    throw new Error('refusing to set ' + name + ' as an attribute');
  }
  el.setAttribute(name, String(value));
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces the children of el. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A count or rate for people: 12,345 or 4.5; a dash when unknown. */
export function num(value) {
  return value === null || value === undefined ? '–' : NUMBER.format(value);
}

/** A duration in ms for people: 350 ms, 4.2 s, 3 min 5 s, 2 h 10 min; a dash when unknown. */
export function duration(ms) {
  if (ms === null || ms === undefined || ms < 0) return '–';
  if (ms < 1000) return Math.round(ms) + ' ms';
  if (ms < 60_000) return (ms / 1000).toFixed(ms < 10_000 ? 1 : 0) + ' s';
  if (ms < 3_600_000) {
    const m = Math.floor(ms / 60_000);
    const s = Math.round((ms % 60_000) / 1000);
    return m + ' min' + (s ? ' ' + s + ' s' : '');
  }
  const hours = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return hours + ' h' + (m ? ' ' + m + ' min' : '');
}

/** An ETA with its band: "about 4.2 s (3.1 s – 5.0 s)". */
export function eta(point, low, high) {
  if (point === null || point === undefined) return 'no estimate yet';
  if (low === null || low === undefined || high === null || high === undefined || low === high) {
    return 'about ' + duration(point);
  }
  return 'about ' + duration(point) + ' (' + duration(low) + ' – ' + duration(high) + ')';
}

/** An epoch-ms time as local date and time; a dash when absent. */
export function time(epochMs) {
  if (epochMs === null || epochMs === undefined) return '–';
  return new Date(epochMs).toLocaleString();
}

/** How long ago an epoch-ms time was, for people. */
export function ago(epochMs, now = Date.now()) {
  if (epochMs === null || epochMs === undefined) return '–';
  return duration(Math.max(0, now - epochMs)) + ' ago';
}
