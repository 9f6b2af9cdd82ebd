// Keyset paging for lists the server pages by cursor (jobs by state, running jobs, tasks by status,
// tickets): the cursors of the pages seen so far are kept in a stack, so "Previous" goes back to the
// exact page before and a refresh reads the page the user is on, never the first again.

import { h, num } from '/ui/dom.js';

/** Page sizes offered where the user picks one. */
export const PAGE_SIZES = [20, 50, 100];

/**
 * A cursor stack. onMove() is called after the user moves (to read the new page at once). Answers
 * {cursor(), page(), reset(), controls(prefix, nextCursor, shown)}.
 */
export function cursorStack(onMove) {
  // stack[i] is the cursor that starts page i + 1; the first page starts with none.
  let stack = [null];
  return {
    /** The cursor of the page shown, or null on the first page. */
    cursor: () => stack[stack.length - 1],
    /** The page shown, from 1. */
    page: () => stack.length,
    /** Back to the first page (the list itself changed: another state, filter or order). */
    reset() {
      stack = [null];
    },
    /**
     * The pager: "Page N", the rows shown, Previous and Next. prefix names the buttons' ids
     * (prefix-previous, prefix-next); nextCursor is the page's next_cursor.
     */
    controls(prefix, nextCursor, shown) {
      const previous = () => {
        if (stack.length > 1) stack.pop();
        onMove();
      };
      const next = () => {
        if (nextCursor) stack.push(nextCursor);
        onMove();
      };
      return h('div', { class: 'pager', id: prefix + '-pager' },
        h('span', { id: prefix + '-page' }, 'Page ' + num(stack.length) + ', ' + num(shown) + ' shown'),
        h('button', { type: 'button', class: 'quiet', id: prefix + '-previous', disabled: stack.length === 1, on: { click: previous } }, 'Previous'),
        h('button', { type: 'button', class: 'quiet', id: prefix + '-next', disabled: !nextCursor, on: { click: next } }, 'Next'),
      );
    },
  };
}

/** A query string of the given parameters, leaving out those null, undefined or ''. */
export function query(params) {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(String(v)));
  return parts.length === 0 ? '' : '?' + parts.join('&');
}

/**
 * A row of tabs (buttons with aria-pressed, one chosen): values [[value, label]], chosen the value
 * shown, onChoose(value). id names the group; each tab is id-value.
 */
export function tabs(id, label, values, chosen, onChoose) {
  return h('div', { class: 'tabs', id, attrs: { role: 'group', 'aria-label': label } },
    values.map(([value, text]) => h('button', {
      type: 'button',
      class: 'tab',
      id: id + '-' + value,
      key: value,
      attrs: { 'aria-pressed': value === chosen ? 'true' : 'false' },
      on: { click: () => onChoose(value) },
    }, text)));
}
