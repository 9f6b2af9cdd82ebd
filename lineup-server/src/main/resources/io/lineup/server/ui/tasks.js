// An endpoint's tasks one status at a time (GET /v1/endpoints/{ns}/{e}/tasks?status=, paged by
// cursor), each linking to its task page, and its controls: pause, resume and reset the circuit
// (manage), each saying the state the server answered afterwards.

import { ApiError, get, post } from '/ui/api.js';
import { ago, duration, h, num, time, update } from '/ui/dom.js';
import { say } from '/ui/notice.js';
import { can, fail, link, section, session } from '/ui/parts.js';
import { cursorStack, query, tabs } from '/ui/paging.js';

/** The statuses listed, with their tab labels. */
export const TASK_STATUSES = [
  ['queued', 'Queued'],
  ['running', 'Running'],
  ['succeeded', 'Succeeded'],
  ['failed', 'Failed'],
  ['cancelled', 'Cancelled'],
  ['timed_out', 'Timed out'],
];

/** Tasks per page, in the list by status and in "Running now". */
export const TASKS_SHOWN = 20;

function taskRows(ns, endpoint, tasks, empty, now) {
  return [
    tasks.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, empty)) : null,
    tasks.map((t) => h('tr', { key: t.id, data: { task: t.id } },
      h('td', null, link(t.id, 'task', ns, endpoint, t.id)),
      h('td', null, String(t.status)),
      h('td', null, t.priority === undefined ? '–' : num(t.priority)),
      h('td', null, h('span', { title: time(t.created_at) }, ago(t.created_at, now))),
      h('td', null, t.attempts ? num(t.attempts.length) + ' of ' + num(t.max_attempts) : '–'),
      h('td', { class: 'text-cell' }, t.error || (t.started_at && !t.finished_at ? 'running for ' + duration(now - t.started_at) : '')),
    )),
  ];
}

function table(id, body) {
  return h('div', { class: 'table-wrap' }, h('table', { id },
    h('thead', null, h('tr', null, ['Task', 'Status', 'Priority', 'Created', 'Attempts', 'Error or progress'].map((t) => h('th', { scope: 'col' }, t)))), body));
}

export function tasksSection(path, ns, endpoint) {
  let status = TASK_STATUSES[0][0];
  let generation = 0;
  const pages = cursorStack(() => {
    generation++;
    session.refresh();
  });
  const tabsBox = h('div');
  const body = h('tbody', { id: 'tasks-body' });
  const pagerBox = h('div');
  const runningBody = h('tbody', { id: 'running-tasks-body' });
  const list = section('Tasks by status', tabsBox, table('tasks', body), pagerBox);
  list.id = 'tasks-section';
  const running = section('Running now', table('running-tasks', runningBody));
  running.id = 'running-tasks-section';
  const drawTabs = () => update(tabsBox, tabs('task-status', 'Task status', TASK_STATUSES, status, (s) => {
    if (s === status) return;
    status = s;
    generation++;
    pages.reset();
    drawTabs();
    update(body, h('tr', { key: 'loading:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'Reading…')));
    session.refresh();
  }));
  drawTabs();
  return {
    sections: [running, list],
    async refresh() {
      const asked = generation;
      const [page, now] = await Promise.all([
        get(path + '/tasks' + query({ status, limit: TASKS_SHOWN, cursor: pages.cursor() })),
        get(path + '/tasks' + query({ status: 'running', limit: TASKS_SHOWN })),
      ]);
      const at = Date.now();
      update(runningBody, taskRows(ns, endpoint, now.tasks, 'No task is being sent now.', at));
      if (asked !== generation) return;
      update(body, taskRows(ns, endpoint, page.tasks, 'No ' + status.replace('_', ' ') + ' tasks' + (pages.page() > 1 ? ' on this page.' : '.'), at));
      update(pagerBox, pages.controls('tasks', page.next_cursor, page.tasks.length));
    },
  };
}

/** What an endpoint's answer says of its state, for people. */
export function endpointState(e) {
  const circuit = e.circuit_breaker_state ? e.circuit_breaker_state.state : 'unknown';
  return (e.paused ? 'paused: tasks are accepted, none is sent' : 'not paused') + '; circuit ' + circuit + '.';
}

/**
 * The endpoint's controls for a token that may manage: Pause or Resume (as the endpoint is now)
 * and Reset circuit (when the breaker is not closed). A resume the breaker refuses (409
 * circuit_open) says so with the server's message.
 */
export function endpointControls(path, e) {
  if (!can('manage')) return null;
  const run = async (button, route, verb) => {
    button.disabled = true;
    try {
      const r = await post(path + route);
      say(verb + ': the endpoint is now ' + endpointState(r));
      await session.refresh();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'circuit_open') {
        // The server's message says until when and how to reset it.
        say('Not resumed: the circuit breaker holds the endpoint (' + error.message + ').', 'error');
      } else {
        fail(error);
      }
    } finally {
      button.disabled = false;
    }
  };
  const open = e.circuit_breaker_state && e.circuit_breaker_state.state !== 'closed';
  return [
    e.paused
      ? h('button', { type: 'button', id: 'endpoint-resume', key: 'resume', on: { click: (ev) => run(ev.currentTarget, '/resume', 'Resumed') } }, 'Resume')
      : h('button', { type: 'button', id: 'endpoint-pause', key: 'pause', on: { click: (ev) => run(ev.currentTarget, '/pause', 'Paused') } }, 'Pause'),
    // While the breaker holds it, Resume is offered too: the server's answer says why it refuses.
    !e.paused && open ? h('button', { type: 'button', id: 'endpoint-resume', key: 'resume', class: 'quiet', on: { click: (ev) => run(ev.currentTarget, '/resume', 'Resumed') } }, 'Resume') : null,
    open ? h('button', { type: 'button', id: 'circuit-reset', key: 'reset', class: 'danger', on: { click: (ev) => run(ev.currentTarget, '/circuit/reset', 'Circuit reset') } }, 'Reset circuit') : null,
  ];
}
