// An endpoint's page (#/endpoint/{ns}/{name}) and a task's (#/task/{ns}/{endpoint}/{id}). The
// endpoint's queue is Lineup's own: its counts and history are readable, its tasks are read
// through the endpoint's routes.

import { del, get, seg } from '/ui/api.js';
import { duration, eta, fill, h, num, time, update } from '/ui/dom.js';
import { place } from '/ui/job.js';
import { act, badge, breakerBadge, can, canRead, confirmButton, link, meter, pairs, preview, section } from '/ui/parts.js';
import { schedulesSection } from '/ui/schedules.js';
import { endpointControls, tasksSection } from '/ui/tasks.js';

/** Failed tasks listed on an endpoint's page, the oldest first. */
export const DEAD_TASKS_SHOWN = 20;

export function endpointView(main, ns, name) {
  const path = '/v1/endpoints/' + seg(ns) + '/' + seg(name);
  const q = '/v1/queues/' + seg(ns) + '/' + seg('dispatch.' + name);
  const head = h('span', { id: 'endpoint-state' });
  const controls = h('span', { class: 'actions', id: 'endpoint-actions' });
  const tasksPart = tasksSection(path, ns, name);
  const live = h('div', { id: 'endpoint-live' });
  const limits = h('div', { id: 'endpoint-limits' });
  const dead = h('div', { id: 'endpoint-dead' });
  const findInput = h('input', { id: 'find-task', placeholder: 'task id', autocomplete: 'off', attrs: { 'aria-label': 'Task id' } });
  const findForm = h('form', { class: 'inline' }, findInput, h('button', { type: 'submit' }, 'Open task'));
  findForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = findInput.value.trim();
    if (id) location.hash = '#/task/' + [ns, name, id].map(seg).join('/');
  });
  const schedulesPart = schedulesSection(path, (text, id) => link(text, 'task', ns, name, id));
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Endpoint ', ns + '/' + name), head, controls),
    section('Now', live),
    canRead() ? tasksPart.sections : null,
    section('Failed tasks (out of attempts)', dead),
    schedulesPart.section,
    section('Limits', limits),
    section('Find a task', findForm),
  );
  let tick = 0;
  let history = null;
  return {
    async refresh() {
      // The endpoint first: one read when it is not there (404) or not this token's (403).
      const e = await get(path);
      const [, s, hist, d, schedules] = await Promise.all([
        canRead() ? tasksPart.refresh() : null,
        get(q).catch(() => null),
        tick % 3 === 0 ? get(q + '/history').catch(() => null) : null,
        tick++ % 3 === 0 ? get(path + '/dead?count=' + DEAD_TASKS_SHOWN).catch(() => null) : null,
        get(path + '/schedules').catch(() => null),
      ]);
      update(controls, endpointControls(path, e));
      await schedulesPart.show(schedules);
      if (hist) history = hist;
      if (d) {
        update(
          dead,
          d.total === 0
            ? h('p', { class: 'muted' }, 'None.')
            : h('ul', null, d.tasks.map((t) => h('li', { key: t.id, data: { task: t.id } }, link(t.id, 'task', ns, name, t.id), ' ', t.finished_at ? time(t.finished_at) : ''))),
          d.total > d.tasks.length ? h('p', { class: 'muted' }, num(d.total) + ' in all; the oldest ' + d.tasks.length + ' shown') : null,
        );
      }
      update(head, breakerBadge(e.circuit_breaker_state.state), e.paused ? [' ', badge('paused', 'paused')] : null);
      const perSecond = e.rate ? e.rate / (e.period_ms / 1000) : 0;
      update(
        live,
        pairs([
          ['Circuit', e.circuit_breaker_state.state + (e.circuit_breaker_state.probe_at ? ', next probe ' + time(e.circuit_breaker_state.probe_at) : ''), 'circuit'],
          ['In flight', meter(e.tasks.running, e.adaptive && e.adaptive.limit ? e.adaptive.limit : e.concurrency, 'Tasks in flight against the concurrency limit'), 'in-flight'],
          e.adaptive ? ['Adaptive limit', adaptiveText(e.adaptive), 'adaptive'] : null,
          ['Served per second', perSecond ? [num(e.service_rate), ' against a limit of ', num(perSecond)] : num(e.service_rate), 'rate'],
          ['Queued', num(e.tasks.queued), 'queued'],
          ['Failed (dead)', num(e.tasks.failed), 'failed'],
          ['Last in line served in', s ? eta(s.drain_eta_ms, s.drain_eta_low_ms, s.drain_eta_high_ms) : '–', 'drain'],
          ['Measured ETA error', history ? etaErrorText(history) : '–', 'eta-error'],
        ]),
      );
      update(
        limits,
        pairs([
          ['Base URL', e.base_url, 'base-url'],
          ['Rate', e.rate ? num(e.rate) + ' per ' + duration(e.period_ms) + (e.burst ? ', burst ' + num(e.burst) : '') : 'no limit', 'rate-limit'],
          ['Concurrency', e.concurrency ? num(e.concurrency) : 'no limit', 'concurrency'],
          ['Attempt timeout', duration(e.attempt_timeout_ms), 'attempt-timeout'],
          ['Max attempts', num(e.max_attempts), 'max-attempts'],
          ['Line timeout', duration(e.line_timeout_ms), 'line-timeout'],
          ['Retention', duration(e.retention_ms), 'retention'],
          ['Circuit breaker', e.circuit_breaker ? e.circuit_breaker.failures + ' failures, ' + duration(e.circuit_breaker.cooldown_ms) + ' cool-down' : '–', 'breaker'],
        ]),
      );
    },
  };
}

// An endpoint's adaptive concurrency: the limit in force within its bounds, why and when it last moved, and a
// Retry-After's hold (docs/adaptive.md).
function adaptiveText(a) {
  const limit = a.limit == null ? '–' : num(a.limit);
  const why = a.reason ? ' (' + a.reason + (a.moved_at ? ', ' + time(a.moved_at) : '') + ')' : '';
  const hold = a.hold_until ? ', held until ' + time(a.hold_until) : '';
  return limit + ' of ' + num(a.min) + '–' + num(a.max) + why + hold;
}

export function etaErrorText(history) {
  const c = history.eta_check;
  if (!c || c.checked === 0) return 'not measured yet';
  return num(c.mean_error_percent) + ' % mean over ' + c.checked + ' readings of the last ' + duration(history.window_ms);
}

/** A response's body as text: JSON indented, text as is, bytes as base64. */
function bodyText(r) {
  if (r.body_base64 !== undefined && r.body_base64 !== null) return '(bytes, base64) ' + r.body_base64;
  if (r.body_text !== undefined && r.body_text !== null) return r.body_text;
  if (r.body === undefined || r.body === null) return '(no body)';
  return preview(r.body);
}

export function taskView(main, ns, endpoint, id) {
  const path = '/v1/endpoints/' + seg(ns) + '/' + seg(endpoint) + '/tasks/' + seg(id);
  const head = h('span', { id: 'task-state' });
  const actions = h('span', { class: 'actions' });
  const fields = h('div', { id: 'task-fields' });
  const attempts = h('tbody', { id: 'task-attempts' });
  const response = h('div', { id: 'task-response' });
  const cancel = confirmButton('Cancel task', 'Press again to cancel', (button) => act(button, () => del(path), 'Cancelled ' + id + '.'), { id: 'cancel-task' });
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Task ', h('code', null, id)), head, actions),
    section('Fields', fields),
    section('Attempts', h('div', { class: 'table-wrap' }, h('table', { id: 'attempts' },
      h('thead', null, h('tr', null, ['Attempt', 'Sent', 'Took', 'Status', 'Error'].map((t) => h('th', { scope: 'col' }, t)))), attempts))),
    section('Response', response),
  );
  return {
    async refresh() {
      // A peek: the dashboard's look does not start the task's read grace (docs/dispatch.md).
      const t = await get(path + '?peek=true');
      update(head, badge(String(t.status), t.status === 'failed' ? 'danger' : 'open'));
      const open = can('cancel') && (t.status === 'queued' || t.status === 'running');
      if (open !== (actions.firstChild === cancel)) fill(actions, open ? cancel : null);
      const waiting = t.position !== null && t.position !== undefined && t.position >= 0;
      update(
        fields,
        pairs([
          ['Endpoint', t.endpoint, 'endpoint'],
          ['Request', t.method ? t.method + ' ' + (t.path === undefined || t.path === null ? '' : t.path) : '–', 'request'],
          ['Priority', t.priority === undefined ? '–' : num(t.priority), 'priority'],
          ['Place in line', place(t.position), 'position'],
          ['ETA', waiting ? eta(t.eta_ms, t.eta_low_ms, t.eta_high_ms) : '–', 'eta'],
          ['Attempts', t.attempts ? num(t.attempts.length) + ' of ' + num(t.max_attempts) : '–', 'attempts'],
          ['Created', time(t.created_at), 'created'],
          ['Due', time(t.due_at), 'due'],
          ['Started', time(t.started_at), 'started'],
          ['Finished', time(t.finished_at), 'finished'],
          ['Fairness key', t.key || '–', 'key'],
          ['Callback', t.callback_url || '–', 'callback'],
          ['Delivery key', t.delivery_key || '–', 'delivery-key'],
          ['Error', t.error || '–', 'error'],
        ]),
      );
      const list = t.attempts || [];
      update(
        attempts,
        list.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 5 }, class: 'muted' }, 'None yet.')) : null,
        list.map((a) => h('tr', { key: String(a.attempt), data: { attempt: a.attempt } },
          h('td', null, num(a.attempt)),
          h('td', null, time(a.started_at)),
          h('td', null, duration(a.duration_ms)),
          h('td', null, a.status === null || a.status === undefined ? '–' : String(a.status)),
          h('td', { class: 'text-cell' }, a.error || '–'))),
      );
      const r = t.response;
      update(
        response,
        !r
          ? h('p', { class: 'muted' }, 'No response yet.')
          : [
            pairs([['Status', String(r.status), 'response-status']]),
            r.headers && Object.keys(r.headers).length > 0
              ? h('details', { class: 'headers' }, h('summary', null, num(Object.keys(r.headers).length) + ' headers'),
                pairs(Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])))
              : null,
            h('pre', { class: 'payload wide', id: 'response-body' }, bodyText(r)),
            r.body_truncated ? h('p', { class: 'muted' }, 'The body was cut where the endpoint\'s limit says.') : null,
          ],
      );
    },
  };
}
