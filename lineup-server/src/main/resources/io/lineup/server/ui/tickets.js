// A room's controls and line: Suspend or Resume (manage; the room as stored afterwards says which),
// the tickets waiting in admission order (GET …/tickets, paged by cursor; reading them does not
// count as their poll), and revoking a pass by its id (jti), asked once before it is done.

import { del, get, post, seg } from '/ui/api.js';
import { eta, h, num, update } from '/ui/dom.js';
import { act, can, canRead, CONFIRM_MS, section, session } from '/ui/parts.js';
import { cursorStack, query } from '/ui/paging.js';

/** Tickets per page. */
export const TICKETS_SHOWN = 20;

/** The Suspend or Resume button for a token that may manage, as the room is now. */
export function roomControls(path, room) {
  if (!can('manage')) return null;
  const say = (r) => (r.suspended
    ? 'Suspended: the room admits nobody now; its line keeps its order and passes given stay valid.'
    : 'Resumed: the room admits again.');
  return room.suspended
    ? h('button', { type: 'button', id: 'room-resume', key: 'resume', on: { click: (e) => act(e.currentTarget, () => post(path + '/resume'), say) } }, 'Resume')
    : h('button', { type: 'button', id: 'room-suspend', key: 'suspend', class: 'danger', on: { click: (e) => act(e.currentTarget, () => post(path + '/suspend'), say) } }, 'Suspend');
}

export function ticketsSection(path) {
  let generation = 0;
  const pages = cursorStack(() => {
    generation++;
    session.refresh();
  });
  const body = h('tbody', { id: 'tickets-body' });
  const pagerBox = h('div');
  const list = section('Tickets in line', h('div', { class: 'table-wrap' }, h('table', { id: 'tickets' },
    h('thead', null, h('tr', null, ['Position', 'Ticket', 'Status', 'Priority', 'ETA'].map((t) => h('th', { scope: 'col' }, t)))), body)), pagerBox);
  list.id = 'tickets-section';

  // Revoking a pass: its id typed in (the pass id a gateway logged, or pass_id of an admitted
  // ticket), then a second press within CONFIRM_MS.
  const jti = h('input', { id: 'revoke-jti', autocomplete: 'off', spellcheck: 'false', placeholder: 'pass id (jti)' });
  const button = h('button', { type: 'submit', id: 'revoke-pass', class: 'danger' }, 'Revoke pass');
  let armedFor = null;
  let disarm = null;
  const form = h('form', { class: 'inline', id: 'revoke-form' }, h('label', { class: 'field' }, h('span', null, 'Pass id'), jti), button);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = jti.value.trim();
    if (!id) return;
    if (armedFor !== id) {
      armedFor = id;
      button.textContent = 'Press again to revoke ' + id;
      button.dataset.armed = 'yes';
      clearTimeout(disarm);
      disarm = setTimeout(() => {
        armedFor = null;
        button.textContent = 'Revoke pass';
        delete button.dataset.armed;
      }, CONFIRM_MS);
      return;
    }
    clearTimeout(disarm);
    armedFor = null;
    button.textContent = 'Revoke pass';
    delete button.dataset.armed;
    act(button, () => del(path + '/passes/' + seg(id)), () => {
      jti.value = '';
      return 'Revoked pass ' + id + ': its slot is free, and the online check refuses it (an offline check accepts it until it expires).';
    });
  });
  const revoke = section('Revoke a pass', h('p', { class: 'muted' }, 'A revoked pass frees its slot at once.'), form);
  revoke.id = 'revoke-section';

  return {
    sections: [canRead() ? list : null, can('manage') ? revoke : null],
    async refresh() {
      if (!canRead()) return;
      const asked = generation;
      const page = await get(path + '/tickets' + query({ limit: TICKETS_SHOWN, cursor: pages.cursor() }));
      if (asked !== generation) return;
      update(
        body,
        page.tickets.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 5 }, class: 'muted' }, 'Nobody in line' + (pages.page() > 1 ? ' on this page.' : '.'))) : null,
        page.tickets.map((t) => h('tr', { key: t.ticket, data: { ticket: t.ticket } },
          h('td', null, t.position === null || t.position === undefined || t.position < 0 ? '–' : num(t.position)),
          h('td', null, h('code', null, t.ticket)),
          h('td', null, String(t.status)),
          h('td', null, t.priority === undefined ? '–' : num(t.priority)),
          h('td', null, eta(t.eta_ms, t.eta_low_ms, t.eta_high_ms)),
        )),
      );
      update(pagerBox, pages.controls('tickets', page.next_cursor, page.tickets.length));
    },
  };
}
