// A queue's jobs, one state at a time (GET …/jobs, docs/job-lists.md): tabs per state, keyset
// paging by a cursor stack, the list's order reversed on demand, filters (id prefix, error text,
// a time range), and per-row and bulk actions (cancel, delete, run now, respawn) through
// POST …/jobs/actions. A bulk action on "all matching" asks once, saying how many match, and sends
// that count as expected_count: the server acts only if it still holds, else it answers the new
// count (409 count_mismatch), which is shown and asked again. The list stays on the page the user
// paged to while it refreshes; the selection, the filters being typed and the focus survive.

import { ApiError, get, post, seg } from '/ui/api.js';
import { ago, h, num, time, update } from '/ui/dom.js';
import { say } from '/ui/notice.js';
import { act, can, canRead, CONFIRM_MS, cut, fail, link, section, session } from '/ui/parts.js';
import { cursorStack, PAGE_SIZES, query, tabs } from '/ui/paging.js';

/** Characters of a job's last error shown in its row; the rest is a press away. */
export const ERROR_CHARS = 120;

/** The states listed, their tab labels, and what the time column of each holds. */
export const STATES = [
  ['ready', 'Ready', 'Position', 'priority, then arrival'],
  ['delayed', 'Delayed', 'Due', 'due time'],
  ['leased', 'Leased', 'Lease deadline', 'lease deadline'],
  ['dead', 'Dead', 'Died', 'time of death'],
  ['finished', 'Finished', 'Finished', 'finish time'],
];

/** The actions each state's jobs take (docs/job-lists.md, Actions). */
export const ACTIONS = {
  ready: ['cancel', 'delete'],
  delayed: ['run_now', 'cancel', 'delete'],
  leased: ['cancel', 'delete'],
  dead: ['respawn', 'delete'],
  finished: ['delete'],
};

const LABELS = { cancel: 'Cancel', delete: 'Delete', run_now: 'Run now', respawn: 'Respawn' };
const DONE = { cancel: 'Cancelled', delete: 'Deleted', run_now: 'Moved to the ready line', respawn: 'Respawned' };

/** Whether the token may take this action on jobs named by id (cancel and delete: publish or manage). */
export function mayById(action) {
  return action === 'cancel' || action === 'delete' ? can('cancel') : can('manage');
}

/** Whether the token may take actions on every job a filter matches (manage only). */
export function mayByFilter() {
  return can('manage');
}

/** The server's answer to an action, for people: what was done and what was left alone, and why. */
export function outcome(r) {
  const text = DONE[r.action] + ' ' + num(r.done) + ' of ' + num(r.matched) + (r.matched === 1 ? ' job.' : ' jobs.');
  if (!r.skipped || r.skipped.length === 0) return text;
  const reasons = new Map();
  for (const s of r.skipped) reasons.set(s.reason, (reasons.get(s.reason) || []).concat(s.id));
  const parts = Array.from(reasons, ([reason, ids]) =>
    num(ids.length) + ' ' + reason.replace(/^state_/, 'now ').replace('not_found', 'not found')
      + ' (' + ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '') + ')');
  return text + ' Left alone: ' + parts.join('; ') + '.';
}

export function jobsSection(q, ns, name) {
  const ui = {
    state: 'ready',
    order: 'asc',
    limit: PAGE_SIZES[0],
    filter: {}, // applied: id_prefix, error, from, to
    selected: new Set(),
    armed: null, // {key, until, count}: a button waiting for its second press
  };
  let answer = null; // the page shown
  let counts = null;
  let generation = 0; // bumped when the list changes, so a read begun before is dropped
  const pages = cursorStack(() => changed(false));

  const tabsBox = h('div', { id: 'jobs-tabs' });
  const body = h('tbody', { id: 'jobs-body' });
  const head = h('thead', { id: 'jobs-head' });
  const pagerBox = h('div', { id: 'jobs-paging' });
  const bulkBox = h('div', { class: 'bulk', id: 'jobs-bulk' });
  const note = h('p', { class: 'muted', id: 'jobs-note' });

  const idInput = h('input', { id: 'jobs-id-prefix', type: 'search', autocomplete: 'off', placeholder: 'id starts with' });
  const errorInput = h('input', { id: 'jobs-error', type: 'search', autocomplete: 'off', placeholder: 'error contains' });
  const fromInput = h('input', { id: 'jobs-from', type: 'datetime-local', step: 1 });
  const toInput = h('input', { id: 'jobs-to', type: 'datetime-local', step: 1 });
  const sizeSelect = h('select', { id: 'jobs-size', attrs: { 'aria-label': 'Jobs per page' } }, PAGE_SIZES.map((n) => h('option', { value: n }, n + ' a page')));
  sizeSelect.addEventListener('change', () => {
    ui.limit = Number(sizeSelect.value);
    changed(true);
  });
  const orderButton = h('button', { type: 'button', id: 'jobs-order', class: 'quiet', attrs: { 'aria-pressed': 'false' } });
  orderButton.addEventListener('click', () => {
    ui.order = ui.order === 'asc' ? 'desc' : 'asc';
    changed(true);
  });
  const filters = h('form', { class: 'controls', id: 'jobs-filters' },
    field('Id prefix', idInput), field('Error text', errorInput), field('From', fromInput), field('To', toInput),
    h('button', { type: 'submit', id: 'jobs-apply' }, 'Filter'),
    h('button', { type: 'button', class: 'quiet', id: 'jobs-clear', on: { click: clearFilters } }, 'Clear'),
  );
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    const from = fromInput.value ? new Date(fromInput.value).getTime() : null;
    const to = toInput.value ? new Date(toInput.value).getTime() : null;
    ui.filter = { id_prefix: idInput.value.trim(), error: errorInput.value, from, to };
    changed(true);
  });

  const part = section('Jobs',
    tabsBox,
    filters,
    h('div', { class: 'controls' }, sizeSelect, orderButton),
    bulkBox,
    h('div', { class: 'table-wrap' }, h('table', { id: 'jobs' }, head, body)),
    note,
    pagerBox,
  );
  part.id = 'jobs-section';

  function field(label, input) {
    return h('label', { class: 'field' }, h('span', null, label), input);
  }

  function clearFilters() {
    for (const input of [idInput, errorInput, fromInput, toInput]) input.value = '';
    ui.filter = {};
    changed(true);
  }

  /** The list changed (fresh = another state, filter, order or size: back to page 1); read it now. */
  function changed(fresh) {
    generation++;
    if (fresh) {
      pages.reset();
      ui.selected.clear();
    }
    ui.armed = null;
    answer = null;
    draw();
    session.refresh();
  }

  function filterBody() {
    const f = { state: ui.state };
    for (const [k, v] of Object.entries(ui.filter)) if (v !== null && v !== undefined && v !== '') f[k] = v;
    return f;
  }

  function filtered() {
    return Object.keys(filterBody()).length > 1;
  }

  /** Arms a button (key) for CONFIRM_MS, redrawn when it disarms; answers whether it was armed. */
  function armed(key) {
    return ui.armed !== null && ui.armed.key === key && Date.now() < ui.armed.until;
  }

  function arm(key, count) {
    const until = Date.now() + CONFIRM_MS;
    ui.armed = { key, until, count };
    draw();
    setTimeout(() => {
      if (ui.armed && ui.armed.until === until) {
        ui.armed = null;
        draw();
      }
    }, CONFIRM_MS + 10);
  }

  async function byIds(button, action, ids) {
    ui.armed = null;
    await act(button, () => post(q + '/jobs/actions', { action, ids }), outcome);
    for (const id of ids) ui.selected.delete(id);
    draw();
  }

  async function one(button, action, id) {
    // run now and respawn have their own routes (404 for an unknown job); the others go by id.
    if (action === 'run_now' || action === 'respawn') {
      const route = action === 'run_now' ? '/run-now' : '/respawn';
      await act(button, () => post(q + '/jobs/' + seg(id) + route), outcome);
      ui.selected.delete(id);
      draw();
    } else {
      await byIds(button, action, [id]);
    }
  }

  /** All matching: the first press asks the server how many match, the second acts on that many. */
  async function allMatching(button, action) {
    const key = 'all:' + action;
    const f = filterBody();
    if (!armed(key)) {
      // The count: an action expecting 0 jobs changes nothing when more match; the server then
      // answers how many do (409 count_mismatch), which is what the confirmation shows.
      button.disabled = true;
      try {
        const r = await post(q + '/jobs/actions', { action, filter: f, expected_count: 0 });
        say('No job matches: nothing to ' + LABELS[action].toLowerCase() + '.' + (r.done ? ' ' + outcome(r) : ''));
      } catch (e) {
        if (e instanceof ApiError && e.code === 'count_mismatch') arm(key, e.body.count);
        else fail(e);
      } finally {
        button.disabled = false;
      }
      return;
    }
    const expected = ui.armed.count;
    ui.armed = null;
    button.disabled = true;
    try {
      const r = await post(q + '/jobs/actions', { action, filter: f, expected_count: expected });
      say(outcome(r));
      ui.selected.clear();
      await session.refresh();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'count_mismatch') {
        arm(key, e.body.count);
        say('Nothing done: ' + num(e.body.count) + ' jobs match now, not ' + num(expected)
          + '. Press again to ' + LABELS[action].toLowerCase() + ' ' + num(e.body.count) + '.', 'error');
      } else {
        fail(e);
      }
    } finally {
      button.disabled = false;
      draw();
    }
  }

  function rowActions(j) {
    return ACTIONS[ui.state].filter(mayById).map((action) => {
      const key = action + ':' + j.id;
      const confirm = action === 'cancel' || action === 'delete';
      const label = confirm && armed(key) ? 'Press again to ' + LABELS[action].toLowerCase() : LABELS[action];
      return h('button', {
        type: 'button',
        class: 'small' + (confirm ? ' danger' : ''),
        key: action,
        data: { action, job: j.id, armed: confirm && armed(key) ? 'yes' : undefined },
        attrs: { 'aria-label': label + ' ' + j.id },
        on: {
          click: (event) => {
            if (confirm && !armed(key)) arm(key);
            else one(event.currentTarget, action, j.id);
          },
        },
      }, label);
    });
  }

  function bulkBar() {
    const ids = Array.from(ui.selected);
    const actions = ACTIONS[ui.state];
    const byId = actions.filter(mayById);
    const byFilter = mayByFilter() ? actions : [];
    if (byId.length === 0 && byFilter.length === 0) return [];
    const what = filtered() ? 'matching the filter' : 'in ' + ui.state;
    return [
      h('span', { id: 'jobs-selected' }, num(ids.length) + ' selected'),
      byId.map((action) => {
        const key = 'ids:' + action;
        const label = armed(key) ? 'Press again to ' + LABELS[action].toLowerCase() + ' ' + num(ids.length) + ' selected' : LABELS[action] + ' selected';
        return h('button', {
          type: 'button',
          class: 'small',
          key,
          id: 'bulk-' + action,
          disabled: ids.length === 0,
          data: { armed: armed(key) ? 'yes' : undefined },
          on: { click: (event) => (armed(key) ? byIds(event.currentTarget, action, ids) : arm(key)) },
        }, label);
      }),
      byFilter.map((action) => {
        const key = 'all:' + action;
        const label = armed(key)
          ? 'Press again to ' + LABELS[action].toLowerCase() + ' all ' + num(ui.armed.count) + ' ' + what
          : LABELS[action] + ' all ' + what;
        return h('button', {
          type: 'button',
          class: 'small danger',
          key,
          id: 'all-' + action,
          data: { armed: armed(key) ? 'yes' : undefined },
          on: { click: (event) => allMatching(event.currentTarget, action) },
        }, label);
      }),
    ];
  }

  function draw() {
    const [, , atLabel, orderText] = STATES.find(([s]) => s === ui.state);
    update(tabsBox, tabs('jobs-state', 'Job state', STATES.map(([s, label]) =>
      [s, label + (counts && counts[s] !== undefined ? ' (' + num(counts[s]) + ')' : '')]), ui.state, (s) => {
      if (s === ui.state) return;
      ui.state = s;
      changed(true);
    }));
    orderButton.setAttribute('aria-pressed', ui.order === 'desc' ? 'true' : 'false');
    orderButton.textContent = 'By ' + orderText + (ui.order === 'desc' ? ', reversed' : '');
    const jobs = answer ? answer.jobs : [];
    const manageable = ACTIONS[ui.state].some(mayById);
    const allOnPage = jobs.length > 0 && jobs.every((j) => ui.selected.has(j.id));
    const selectAll = manageable
      ? h('input', {
        type: 'checkbox',
        id: 'jobs-select-page',
        attrs: { 'aria-label': 'Select every job on this page' },
        on: {
          change: (event) => {
            for (const j of jobs) {
              if (event.currentTarget.checked) ui.selected.add(j.id);
              else ui.selected.delete(j.id);
            }
            draw();
          },
        },
      })
      : null;
    update(head, h('tr', null,
      manageable ? h('th', { scope: 'col' }, selectAll) : null,
      ['Job', atLabel, 'Priority', 'Attempts', 'Created', 'Last error'].map((t) => h('th', { scope: 'col', key: t }, t)),
      manageable ? h('th', { scope: 'col', key: 'actions' }, h('span', { class: 'visually-hidden' }, 'Actions')) : null,
    ));
    const columns = 6 + (manageable ? 2 : 0);
    update(
      body,
      !answer ? h('tr', { key: 'loading:' }, h('td', { attrs: { colspan: columns }, class: 'muted' }, 'Reading…')) : null,
      answer && jobs.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: columns }, class: 'muted' },
        filtered() ? 'No job on this page matches.' : 'No ' + ui.state + ' jobs' + (pages.page() > 1 ? ' on this page.' : '.'))) : null,
      jobs.map((j) => h('tr', { key: j.id, data: { jobRow: j.id } },
        manageable ? h('td', null, h('input', {
          type: 'checkbox',
          data: { select: j.id },
          attrs: { 'aria-label': 'Select ' + j.id },
          on: {
            change: (event) => {
              if (event.currentTarget.checked) ui.selected.add(j.id);
              else ui.selected.delete(j.id);
              draw();
            },
          },
        })) : null,
        h('td', null, link(j.id, 'job', ns, name, j.id)),
        h('td', { data: { col: 'at' } }, ui.state === 'ready' ? num(j.position) : time(j.at)),
        h('td', null, num(j.priority)),
        h('td', null, num(j.attempts)),
        h('td', null, ago(j.created_at)),
        h('td', { class: 'text-cell', data: { col: 'error' } }, j.last_error ? cut(j.last_error, ERROR_CHARS) : ''),
        manageable ? h('td', { class: 'row-actions' }, rowActions(j)) : null,
      )),
    );
    // The checkboxes follow the selection (a click changes a box's state, not its attribute).
    if (selectAll) head.querySelector('#jobs-select-page').checked = allOnPage;
    for (const box of body.querySelectorAll('input[data-select]')) box.checked = ui.selected.has(box.dataset.select);
    update(bulkBox, bulkBar());
    update(note, answer && answer.refused ? answer.refused : answer && filtered()
      ? 'This page examined ' + num(answer.scanned) + ' jobs for the filter' + (answer.next_cursor ? '; more may match on the next pages.' : '.')
      : '');
    update(pagerBox, pages.controls('jobs', answer ? answer.next_cursor : null, jobs.length));
  }

  return {
    section: part,
    /** Reads the page shown (stats: the queue's GET, for the counts on the tabs). */
    async refresh(stats) {
      counts = stats.counts;
      if (!canRead()) {
        update(body, h('tr', { key: 'scope:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'Job lists need a token with the manage or read scope.')));
        return;
      }
      const asked = generation;
      let page;
      try {
        page = await get(q + '/jobs' + query({
          state: ui.state, order: ui.order, limit: ui.limit, cursor: pages.cursor(), ...ui.filter,
        }));
      } catch (e) {
        // A filter the server refuses (a range that ends before it starts, ...) is said under the
        // list; the rest of the page goes on.
        if (!(e instanceof ApiError) || e.status !== 400) throw e;
        page = { jobs: [], next_cursor: null, scanned: 0, refused: e.describe() };
      }
      if (asked !== generation) return; // the user moved meanwhile; the next read shows the new list
      answer = page;
      // Ids selected but no longer listed anywhere stay selected: the server checks each one.
      draw();
    },
  };
}
