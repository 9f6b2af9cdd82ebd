// The overview (#/): every queue of the token's namespaces, grouped by namespace (each group
// folds), filtered by name, sorted by any column, Lineup's own queues hidden unless asked for, and
// shown PAGE_ROWS rows at a time so the page stays small with 1,000 queues; then the endpoints and
// the rooms. Rows are keyed: a refresh changes only the cells whose text changed.

import { get } from '/ui/api.js';
import { duration, fill, h, num, update } from '/ui/dom.js';
import { badge, breakerBadge, canRead, link, reserved, section } from '/ui/parts.js';

/** Rows (namespace headings and queues) shown at a time. */
export const PAGE_ROWS = 100;

/** The queue table's columns: key, heading, the value sorted on. */
const COLUMNS = [
  ['name', 'Queue', (q) => q.name],
  ['ready', 'Ready', (q) => q.counts.ready],
  ['delayed', 'Delayed', (q) => q.counts.delayed],
  ['leased', 'Leased', (q) => q.counts.leased],
  ['dead', 'Dead', (q) => q.counts.dead],
  ['published', 'Published/s', (q) => (q.rates ? q.rates.published_per_s : -1)],
  ['completed', 'Completed/s', (q) => (q.rates ? q.rates.completed_per_s : -1)],
  ['failed', 'Failed/s', (q) => (q.rates ? q.rates.failed_per_s : -1)],
  ['lateness', 'Lateness p99', (q) => (q.lateness_p99_ms === null || q.lateness_p99_ms === undefined ? -1 : q.lateness_p99_ms)],
  ['state', 'State', (q) => (q.paused ? 1 : 0)],
];

/** Where a queue's row leads: an endpoint's or a room's queue to its endpoint or room. */
function queueLink(q) {
  if (q.kind === 'endpoint') return link(q.queue, 'endpoint', q.namespace, q.name.slice('dispatch.'.length));
  if (q.kind === 'room') return link(q.queue, 'room', q.namespace, q.name.slice('room.'.length));
  return link(q.queue, 'queue', q.namespace, q.name);
}

/** "1 queue", "12 queues". */
function count(n, one, many = one + 's') {
  return num(n) + ' ' + (n === 1 ? one : many);
}

function queueRow(q) {
  const cell = (col, label, value, props = {}) => h('td', { data: { col, label }, ...props }, value);
  return h('tr', { key: 'q:' + q.queue, data: { queue: q.queue }, class: reserved(q.name) ? 'internal' : null },
    cell('name', 'Queue', queueLink(q)),
    cell('ready', 'Ready', num(q.counts.ready)),
    cell('delayed', 'Delayed', num(q.counts.delayed)),
    cell('leased', 'Leased', num(q.counts.leased)),
    cell('dead', 'Dead', num(q.counts.dead), { class: q.counts.dead > 0 ? 'warn' : null }),
    cell('published', 'Published/s', q.rates ? num(q.rates.published_per_s) : '–'),
    cell('completed', 'Completed/s', q.rates ? num(q.rates.completed_per_s) : '–'),
    cell('failed', 'Failed/s', q.rates ? num(q.rates.failed_per_s) : '–'),
    cell('lateness', 'Lateness p99', duration(q.lateness_p99_ms), { title: 'jobs leased through this server instance since it started' }),
    cell('state', 'State', q.paused ? badge('paused', 'paused') : badge('open', 'open')),
  );
}

export function overviewView(main) {
  const state = { filter: '', sort: 'name', descending: false, internal: false, page: 0, folded: new Set(), answer: null };
  const queues = h('tbody', { id: 'queues-body' });
  const endpoints = h('tbody', { id: 'endpoints-body' });
  const rooms = h('tbody', { id: 'rooms-body' });
  const readAt = h('span', { class: 'muted', id: 'read-at' });
  const truncated = h('p', { class: 'muted', hidden: true }, 'Only the first 1,000 queues are shown.');
  const pager = h('div', { class: 'pager', id: 'pager' });
  const filter = h('input', { id: 'queue-filter', type: 'search', placeholder: 'Filter by name', autocomplete: 'off', attrs: { 'aria-label': 'Filter queues by name' } });
  filter.addEventListener('input', () => {
    state.filter = filter.value.trim().toLowerCase();
    state.page = 0;
    draw();
  });
  const internal = h('input', { id: 'show-internal', type: 'checkbox' });
  internal.addEventListener('change', () => {
    state.internal = internal.checked;
    state.page = 0;
    draw();
  });
  const headings = h('tr', null, COLUMNS.map(([key, title]) => h('th', { scope: 'col', data: { sort: key } },
    h('button', { type: 'button', class: 'sort', on: { click: () => sortBy(key) } }, title))));
  const sortBy = (key) => {
    state.descending = state.sort === key ? !state.descending : key !== 'name';
    state.sort = key;
    draw();
  };
  const mayRead = canRead();
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Overview'), readAt),
    section(
      'Queues',
      h('div', { class: 'controls' }, filter, h('label', { class: 'check' }, internal, ' Show Lineup\'s own queues')),
      h('div', { class: 'table-wrap' }, h('table', { id: 'queues', class: 'cards' }, h('thead', null, headings), queues)),
      pager,
      truncated,
    ),
    section(
      'Endpoints',
      mayRead ? null : h('p', { class: 'muted' }, 'Endpoints need a token with the manage or read scope.'),
      h('div', { class: 'table-wrap' }, h('table', { id: 'endpoints' },
        h('thead', null, h('tr', null, ['Endpoint', 'Circuit', 'In flight', 'Queued', 'Rate', 'Served/s'].map((t) => h('th', { scope: 'col' }, t)))),
        endpoints)),
    ),
    section(
      'Rooms',
      mayRead ? null : h('p', { class: 'muted' }, 'Rooms need a token with the manage or read scope.'),
      h('div', { class: 'table-wrap' }, h('table', { id: 'rooms' },
        h('thead', null, h('tr', null, ['Room', 'In line', 'Active', 'Admit per minute', 'Method', 'State'].map((t) => h('th', { scope: 'col' }, t)))),
        rooms)),
    ),
  );

  function toggle(ns) {
    if (state.folded.has(ns)) state.folded.delete(ns);
    else state.folded.add(ns);
    draw();
  }

  function draw() {
    const o = state.answer;
    if (!o) return;
    for (const th of headings.children) {
      th.setAttribute('aria-sort', th.dataset.sort === state.sort ? (state.descending ? 'descending' : 'ascending') : 'none');
    }
    const value = COLUMNS.find((c) => c[0] === state.sort)[2];
    const hiddenInternal = o.queues.filter((q) => reserved(q.name)).length;
    const shown = o.queues.filter((q) => (state.internal || !reserved(q.name)) && (!state.filter || q.queue.toLowerCase().includes(state.filter)));
    const groups = new Map();
    for (const q of shown) {
      if (!groups.has(q.namespace)) groups.set(q.namespace, []);
      groups.get(q.namespace).push(q);
    }
    const direction = state.descending ? -1 : 1;
    const items = [];
    for (const ns of Array.from(groups.keys()).sort()) {
      const list = groups.get(ns);
      list.sort((a, b) => {
        const x = value(a);
        const y = value(b);
        const order = x < y ? -1 : x > y ? 1 : 0;
        return order * direction || (a.name < b.name ? -1 : 1);
      });
      const folded = state.folded.has(ns);
      const dead = list.reduce((sum, q) => sum + q.counts.dead, 0);
      items.push(h('tr', { key: 'ns:' + ns, class: 'group', data: { namespace: ns } },
        h('th', { scope: 'rowgroup', attrs: { colspan: COLUMNS.length } },
          h('button', { type: 'button', class: 'fold', attrs: { 'aria-expanded': String(!folded) }, on: { click: () => toggle(ns) } },
            (folded ? '▸ ' : '▾ ') + ns),
          h('span', { class: 'muted' }, ' ' + count(list.length, 'queue') + (dead > 0 ? ', ' + num(dead) + ' dead' : '')))));
      if (!folded) for (const q of list) items.push(q);
    }
    const pages = Math.max(1, Math.ceil(items.length / PAGE_ROWS));
    state.page = Math.min(state.page, pages - 1);
    const from = state.page * PAGE_ROWS;
    const page = items.slice(from, from + PAGE_ROWS);
    update(
      queues,
      shown.length === 0
        ? h('tr', { key: 'empty' }, h('td', { attrs: { colspan: COLUMNS.length }, class: 'muted' },
          o.queues.length === 0 ? 'No queues yet.' : 'No queue matches.'))
        : null,
      page.map((item) => (item instanceof Node ? item : queueRow(item))),
    );
    const go = (to) => () => {
      state.page = to;
      draw();
    };
    update(
      pager,
      h('span', { id: 'pager-text' }, count(shown.length, 'queue')
        + (!state.internal && hiddenInternal > 0 ? ', ' + count(hiddenInternal, 'of Lineup\'s own', 'of Lineup\'s own') + ' hidden' : '')
        + (pages > 1 ? '; rows ' + num(from + 1) + '–' + num(from + page.length) + ' of ' + num(items.length) : '')),
      pages > 1 ? h('button', { type: 'button', class: 'quiet', id: 'page-previous', disabled: state.page === 0, on: { click: go(state.page - 1) } }, 'Previous') : null,
      pages > 1 ? h('button', { type: 'button', class: 'quiet', id: 'page-next', disabled: state.page >= pages - 1, on: { click: go(state.page + 1) } }, 'Next') : null,
    );
  }

  let filled = false;
  return {
    async refresh() {
      const o = await get('/v1/overview');
      state.answer = o;
      update(readAt, 'updated ' + new Date(o.read_at).toLocaleTimeString());
      truncated.hidden = !o.truncated;
      draw();
      update(
        endpoints,
        o.endpoints.length === 0 ? h('tr', { key: 'empty' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No endpoints.')) : null,
        o.endpoints.map((e) =>
          h('tr', { key: e.namespace + '/' + e.endpoint, data: { endpoint: e.namespace + '/' + e.endpoint } },
            h('td', null, link(e.namespace + '/' + e.endpoint, 'endpoint', e.namespace, e.endpoint)),
            h('td', null, breakerBadge(e.circuit_breaker_state.state)),
            h('td', null, num(e.tasks.running), ' of ', e.concurrency ? num(e.concurrency) : 'no limit'),
            h('td', null, num(e.tasks.queued)),
            h('td', null, e.rate ? num(e.rate) + ' per ' + duration(e.period_ms) : 'no limit'),
            h('td', null, num(e.service_rate)),
          ),
        ),
      );
      update(
        rooms,
        o.rooms.length === 0 ? h('tr', { key: 'empty' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No rooms.')) : null,
        o.rooms.map((r) =>
          h('tr', { key: r.namespace + '/' + r.room, data: { room: r.namespace + '/' + r.room } },
            h('td', null, link(r.namespace + '/' + r.room, 'room', r.namespace, r.room)),
            h('td', null, num(r.waiting)),
            h('td', null, num(r.active), ' of ', num(r.max_active)),
            h('td', null, num(r.admit_per_minute)),
            h('td', null, r.queueing_method),
            h('td', null, r.suspended ? badge('suspended', 'paused') : badge('admitting', 'open')),
          ),
        ),
      );
      if (!filled) {
        filled = true;
        // The test reads this mark to measure how long the first fill took.
        performance.mark('lineup-overview-filled');
      }
    },
  };
}
