// A waiting room's page (#/room/{ns}/{name}): its line, active passes, admissions against its
// limit, and a chart of the admissions and joins counted in each minute, in the same unit as the
// limit it is drawn against (admit_per_minute).

import { get, seg } from '/ui/api.js';
import { duration, eta, fill, h, num, time, update } from '/ui/dom.js';
import { chart } from '/ui/chart.js';
import { etaErrorText } from '/ui/endpoint.js';
import { badge, meter, pairs, section } from '/ui/parts.js';
import { roomControls, ticketsSection } from '/ui/tickets.js';

const MINUTE_MS = 60_000;

/**
 * The admissions and joins counted in each whole minute of the history (the readings' growth in
 * leased and published jobs, put in the minute of the later reading): [[minute start in s],
 * [admitted], [joined]].
 */
export function perMinute(samples) {
  const minutes = new Map();
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1];
    const b = samples[i];
    const minute = Math.floor(b.at / MINUTE_MS) * MINUTE_MS;
    const counts = minutes.get(minute) || { admitted: 0, joined: 0 };
    counts.admitted += Math.max(0, b.leased_total - a.leased_total);
    counts.joined += Math.max(0, b.published - a.published);
    minutes.set(minute, counts);
  }
  const keys = Array.from(minutes.keys()).sort((x, y) => x - y);
  return [keys.map((m) => m / 1000), keys.map((m) => minutes.get(m).admitted), keys.map((m) => minutes.get(m).joined)];
}

/** Tickets admitted in the minute up to the latest reading, or null with fewer than two. */
export function admittedLastMinute(samples) {
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1];
  let first = samples[0];
  for (const s of samples) {
    if (last.at - s.at <= MINUTE_MS) {
      first = s;
      break;
    }
  }
  return last.leased_total - first.leased_total;
}

export function roomView(main, ns, name) {
  const path = '/v1/rooms/' + seg(ns) + '/' + seg(name);
  const q = '/v1/queues/' + seg(ns) + '/' + seg('room.' + name);
  const head = h('span', { id: 'room-state' });
  const controls = h('span', { class: 'actions', id: 'room-actions' });
  const ticketsPart = ticketsSection(path);
  const live = h('div', { id: 'room-live' });
  const settings = h('div', { id: 'room-settings' });
  const chartBox = h('div', { class: 'chart', id: 'admissions-chart' });
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Room ', ns + '/' + name), head, controls),
    section('Now', live),
    ticketsPart.sections,
    section('Admissions, last 15 minutes', chartBox, h('p', { class: 'muted' }, 'Tickets admitted and joined in each minute, against the room\'s admit_per_minute.')),
    section('Settings', settings),
  );
  const admissions = chart(chartBox, 'Tickets per minute', [
    { label: 'admitted', color: '--c3' },
    { label: 'joined', color: '--c1' },
    { label: 'limit', color: '--muted', dash: [6, 4] },
  ]);
  let tick = 0;
  let history = null;
  return {
    close() {
      admissions.close();
    },
    async refresh() {
      // The room first: one read when it is not there (404) or not this token's (403).
      const r = await get(path);
      const [, s, hist] = await Promise.all([
        ticketsPart.refresh(),
        get(q).catch(() => null),
        tick++ % 3 === 0 ? get(q + '/history').catch(() => null) : null,
      ]);
      if (hist) {
        history = hist;
        const [x, admitted, joined] = perMinute(hist.samples);
        admissions.set([x, admitted, joined, x.map(() => r.admit_per_minute)]);
      }
      const counters = (s && s.counters) || {};
      const lastMinute = history ? admittedLastMinute(history.samples) : null;
      update(controls, roomControls(path, r));
      update(head, r.suspended ? badge('suspended', 'paused') : badge('admitting', 'open'));
      update(
        live,
        pairs([
          ['In line', num(r.waiting), 'waiting'],
          ['Active passes', meter(r.active, r.max_active, 'Active passes against max_active'), 'active'],
          ['Admitted in the last minute', lastMinute === null ? '–' : [num(lastMinute), ' (limit ', num(r.admit_per_minute), ' per minute)'], 'admitted'],
          ['Pre-queue', num(r.pre_queue), 'pre-queue'],
          ['Last in line admitted in', s ? eta(s.drain_eta_ms, s.drain_eta_low_ms, s.drain_eta_high_ms) : '–', 'drain'],
          ['Left or abandoned (tickets cancelled)', num(counters.cancelled || 0), 'abandoned'],
          ['Measured ETA error', history ? etaErrorText(history) : '–', 'eta-error'],
        ]),
      );
      update(
        settings,
        pairs([
          ['Max active', num(r.max_active), 'max-active'],
          ['Admit per minute', num(r.admit_per_minute), 'admit-per-minute'],
          ['Pass lifetime', duration(r.pass_ttl_ms), 'pass-ttl'],
          ['Renewable', r.renewable ? 'yes' : 'no', 'renewable'],
          ['Queueing', r.queueing_method, 'method'],
          ['Abandonment grace', duration(r.grace_ms), 'grace'],
          ['Event start', time(r.event_start_at), 'event-start'],
        ]),
      );
    },
  };
}
