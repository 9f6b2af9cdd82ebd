// Building the page from data without ever parsing data as HTML: every text from the server goes
// through text nodes (textContent), attributes are set one by one, and no event handler is ever
// given as text.
//
// A page is built once and then updated in place (update below): a fresh tree is built from the
// new data and only what differs is changed in the page, rows matched by their key. Focus, a text
// selection and what the user typed survive a refresh.

/**
 * Creates an element. props: {class, id, key, title, href, type, value, placeholder, disabled,
 * hidden, data: {name: value}, attrs: {name: value}, on: {event: function}}. key (data-key) names
 * a row among its siblings for update(). Children: strings and numbers become text nodes; null and
 * false are skipped; arrays are flattened.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  const p = props || {};
  for (const [key, value] of Object.entries(p)) {
    if (value === undefined || value === null) continue;
    if (key === 'class') el.className = value;
    else if (key === 'key') el.dataset.key = String(value);
    else if (key === 'data') for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    else if (key === 'on') for (const [k, v] of Object.entries(value)) listen(el, k, v);
    else if (key === 'attrs') for (const [k, v] of Object.entries(value)) setAttr(el, k, v);
    else if (key === 'hidden' || key === 'disabled') el[key] = Boolean(value);
    else if (key === 'value') el.value = String(value);
    else setAttr(el, key, value);
  }
  append(el, children);
  return el;
}

// Handlers are kept on the element and called through one listener per event, so update() can
// give a kept element the handlers of its fresh twin (they see the newest data).
function listen(el, type, handler) {
  if (!el.lineupOn) el.lineupOn = {};
  if (!el.lineupOn[type]) el.addEventListener(type, dispatch);
  el.lineupOn[type] = handler;
}

function dispatch(event) {
  const handler = this.lineupOn && this.lineupOn[event.type];
  if (handler) handler.call(this, event);
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

/**
 * Makes the children of el those given, changing the page as little as it can: a child with the
 * same key (or, without keys, the same place and tag) is kept and updated, its text nodes changed
 * only when their text changed; others are added or removed. Inside an element marked data-keep
 * (a chart) nothing is touched. An input marked data-server (the value the server holds) keeps
 * what the user typed: it takes the server's new value only while it still shows the old one.
 */
export function update(el, ...children) {
  const fresh = document.createDocumentFragment();
  append(fresh, children);
  morphChildren(el, fresh);
  return el;
}

function keyOf(node) {
  return node.nodeType === 1 && node.dataset.key !== undefined ? node.dataset.key : null;
}

function alike(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function morphChildren(target, source) {
  const next = Array.from(source.childNodes);
  const old = Array.from(target.childNodes);
  const byKey = new Map();
  const unkeyed = [];
  for (const node of old) {
    const key = keyOf(node);
    if (key === null) unkeyed.push(node);
    else if (!byKey.has(key)) byKey.set(key, node);
  }
  const used = new Set();
  let index = 0;
  const matches = next.map((node) => {
    const key = keyOf(node);
    let match = null;
    if (key !== null) {
      const candidate = byKey.get(key);
      if (candidate && !used.has(candidate) && alike(candidate, node)) match = candidate;
    } else if (index < unkeyed.length) {
      const candidate = unkeyed[index++];
      if (alike(candidate, node)) match = candidate;
    }
    if (match) used.add(match);
    return match;
  });
  // Removing the unmatched first leaves the kept ones in order: nothing moves that need not.
  for (const node of old) if (!used.has(node)) node.remove();
  let cursor = target.firstChild;
  next.forEach((node, i) => {
    const kept = matches[i];
    if (kept) morphNode(kept, node);
    const placed = kept || node;
    if (placed === cursor) cursor = cursor.nextSibling;
    else target.insertBefore(placed, cursor);
  });
}

function morphNode(old, fresh) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  const clean = old.dataset.server !== undefined && old.value === old.dataset.server;
  for (const attr of Array.from(old.attributes)) {
    if (attr.name === 'open' && old.nodeName === 'DETAILS') continue;
    if (!fresh.hasAttribute(attr.name)) old.removeAttribute(attr.name);
  }
  for (const attr of Array.from(fresh.attributes)) {
    if (old.getAttribute(attr.name) === attr.value) continue;
    if (attr.name === 'open' && old.nodeName === 'DETAILS') continue; // the user opens and closes it
    // CSSOM, as the policy forbids style attributes.
    if (attr.name === 'style') old.style.cssText = fresh.style.cssText;
    else old.setAttribute(attr.name, attr.value);
  }
  if (clean && old.value !== fresh.value) old.value = fresh.value;
  if (fresh.lineupOn) for (const [type, handler] of Object.entries(fresh.lineupOn)) listen(old, type, handler);
  if (old.dataset.keep === undefined) morphChildren(old, fresh);
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
