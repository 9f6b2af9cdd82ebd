// The Keys section of a fair queue's page: how many fairness keys have jobs waiting and leased, the
// keys with most of each, and pause or resume per key for a token that may manage.

import { duration, h, num, update } from '/ui/dom.js';
import { seg, post } from '/ui/api.js';
import { act, badge, can, section } from '/ui/parts.js';

/** Keys of a fair queue shown by most jobs waiting, and by most leased. */
export const KEYS_SHOWN = 20;

/**
 * The Keys section of a queue's page, and show(answer) that fills it from GET q/fairness: for a fair queue the
 * number of keys waiting and leased and the keys with most jobs waiting and leased, with each one's share of the
 * waiting jobs, effective weight and limits, state, and pause or resume (POST q/keys/{key}/pause|resume) for a
 * token that may manage; for another queue one line saying fairness is off.
 */
export function keysSection(q) {
  const summary = h('p', { class: 'muted', id: 'keys-summary' });
  const byWaiting = h('tbody', { id: 'keys-waiting-body' });
  const byLeased = h('tbody', { id: 'keys-leased-body' });
  const columns = ['Key', 'Waiting', 'Share of waiting', 'Leased', 'Weight', 'Concurrency', 'Rate', 'Max waiting', 'State', ''];
  const table = (id, caption, body) => h('div', { class: 'table-wrap' }, h('table', { id },
    h('caption', null, caption), h('thead', null, h('tr', null, columns.map((t) => h('th', { scope: 'col' }, t)))), body));
  const tables = h('div', { id: 'keys-tables' }, table('keys-waiting', 'Most jobs waiting', byWaiting), table('keys-leased', 'Most jobs leased', byLeased));
  const part = section('Keys', summary, tables);
  part.id = 'keys';
  const show = (answer) => {
    if (!answer.fair) {
      update(summary, 'Fairness is off: this queue serves its jobs in arrival order, whatever their key.');
      tables.hidden = true;
      return;
    }
    tables.hidden = false;
    update(summary, num(answer.keys_waiting) + ' keys with jobs waiting, ' + num(answer.keys_leased) + ' with jobs leased; '
      + num(answer.waiting) + ' jobs waiting in all.');
    fillKeys(q, byWaiting, answer.by_waiting, 'No key has jobs waiting.');
    fillKeys(q, byLeased, answer.by_leased, 'No key has jobs leased.');
  };
  return { section: part, show };
}

function fillKeys(q, body, keys, empty) {
  update(
    body,
    keys.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 10 }, class: 'muted' }, empty)) : null,
    keys.map((k) => {
      const named = k.key !== '';
      const path = q + '/keys/' + seg(k.key);
      const action = named && can('manage')
        ? h('button', { type: 'button', class: 'small', data: { keyAction: k.key }, on: { click: (e) => act(e.currentTarget, () => post(path + (k.paused ? '/resume' : '/pause')), (k.paused ? 'Resumed key ' : 'Paused key ') + k.key + '.') } }, k.paused ? 'Resume' : 'Pause')
        : null;
      const e = k.effective;
      return h('tr', { data: { key: k.key } }, // data-key: the row's key for update() too
        h('td', { class: 'text-cell' }, named ? k.key : h('span', { class: 'muted' }, '(no key)')),
        h('td', { data: { col: 'waiting' } }, num(k.waiting)),
        h('td', { data: { col: 'share' } }, k.share_percent === null ? '–' : num(k.share_percent) + ' %'),
        h('td', { data: { col: 'leased' } }, num(k.leased)),
        h('td', { data: { col: 'weight' } }, num(e.weight)),
        h('td', null, e.concurrency ? num(e.concurrency) : 'none'),
        h('td', null, e.rate ? num(e.rate) + ' per ' + duration(e.rate_period_ms) : 'none'),
        h('td', null, e.max_waiting ? num(e.max_waiting) : 'none'),
        h('td', { data: { col: 'state' } }, k.paused ? badge('paused', 'paused') : badge('served', 'open')),
        h('td', null, action),
      );
    }),
  );
}

