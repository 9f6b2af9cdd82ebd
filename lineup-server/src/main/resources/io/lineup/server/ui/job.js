// A job's page (#/job/{ns}/{queue}/{id}): its fields, payload and result (a preview, and the exact
// bytes as a download), its timeline, and Cancel or Respawn when they apply.

import { del, get, post, seg } from '/ui/api.js';
import { duration, eta, fill, h, num, time, update } from '/ui/dom.js';
import { act, badge, can, confirmButton, pairs, preview, section } from '/ui/parts.js';

const FINISHED = new Set(['DONE', 'CANCELLED', 'EXPIRED', 'DEAD']);

/** A place in line for people: 0 is "next"; -1 (not waiting in line) is "not in line". */
export function place(position) {
  if (position === null || position === undefined || position < 0) return 'not in line';
  return position === 0 ? '0 (next)' : num(position);
}

export function jobView(main, ns, name, id) {
  const q = '/v1/queues/' + seg(ns) + '/' + seg(name);
  const path = q + '/jobs/' + seg(id);
  const stateBadge = h('span', { id: 'job-state' });
  const actions = h('span', { class: 'actions' });
  const fields = h('div', { id: 'job-fields' });
  const payload = h('pre', { class: 'payload', id: 'payload' });
  const result = h('pre', { class: 'payload', id: 'result' });
  const timeline = h('ol', { class: 'timeline', id: 'timeline' });
  const download = h('button', { type: 'button', id: 'download', class: 'quiet' }, 'Download the exact bytes');
  download.addEventListener('click', () => act(download, async () => {
    const job = await get(path + '?payload_encoding=base64');
    const bytes = Uint8Array.from(atob(job.payload_base64), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const a = h('a', { href: url, download: (name + '-' + id + '.bin').replace(/[^A-Za-z0-9._-]/g, '_') });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }));
  let state = null;
  const cancel = confirmButton('Cancel job', 'Press again to cancel', (button) => act(button, () => del(path), 'Cancelled ' + id + '.'), { id: 'cancel' });
  const respawn = h('button', { type: 'button', id: 'respawn-job', on: { click: (e) => act(e.currentTarget, () => post(q + '/dead/respawn', { ids: [id] }), 'Respawned ' + id + '.') } }, 'Respawn');
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Job ', h('code', null, id)), stateBadge, actions),
    section('Fields', fields),
    section('Payload', payload, download),
    section('Result', result),
    section('Timeline', timeline, h('p', { class: 'muted' }, 'From the queue\'s event stream (its last 1,000 entries) and the job\'s own times.')),
  );
  return {
    async refresh() {
      const [job, events] = await Promise.all([get(path), get(path + '/events').catch(() => ({ events: [] }))]);
      state = job.state;
      update(stateBadge, badge(job.state.toLowerCase(), job.state === 'DEAD' ? 'danger' : FINISHED.has(job.state) ? '' : 'open'));
      const offered = [can('cancel') && !FINISHED.has(state) ? cancel : null, can('manage') && state === 'DEAD' ? respawn : null].filter(Boolean);
      // The buttons are kept (not rebuilt) so a press in progress is not lost.
      if (offered.length !== actions.childElementCount || offered.some((b, i) => actions.children[i] !== b)) fill(actions, offered);
      update(
        fields,
        pairs([
          ['Queue', job.queue, 'queue'],
          ['Priority', num(job.priority), 'priority'],
          ['Attempts', num(job.attempts) + ' of ' + num(job.max_attempts), 'attempts'],
          ['Position', place(job.position), 'position'],
          ['ETA', job.state === 'READY' ? eta(job.eta_ms, job.eta_low_ms, job.eta_high_ms) : '–', 'eta'],
          ['Created', time(job.created_at), 'created'],
          ['Due', time(job.due_at), 'due'],
          ['Started', time(job.started_at), 'started'],
          ['Finished', time(job.finished_at), 'finished'],
          ['Lease ends', time(job.lease_deadline_at), 'lease'],
          ['Expires', time(job.expires_at), 'expires'],
          ['Time to run', duration(job.ttr_ms), 'ttr'],
          ['Last error', job.last_error || '–', 'error'],
        ]),
      );
      update(payload, preview(job.payload, job.payload_base64));
      update(result, job.result === null && job.result_base64 === undefined ? '(none)' : preview(job.result, job.result_base64));
      const steps = events.events.map((e) => ({ at: e.at, what: e.kind }));
      const seen = new Set(steps.map((s) => s.what));
      if (!seen.has('published') && job.created_at) steps.push({ at: job.created_at, what: 'published' });
      if (job.finished_at && !steps.some((s) => s.at === job.finished_at)) {
        steps.push({ at: job.finished_at, what: job.state.toLowerCase() });
      }
      steps.sort((a, b) => a.at - b.at);
      update(timeline, steps.map((s, i) => h('li', { key: s.at + ':' + s.what + ':' + i, data: { event: s.what } }, h('span', { class: 'when' }, time(s.at)), ' ', h('strong', null, s.what))));
    },
  };
}
