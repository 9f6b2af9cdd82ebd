// Every call of the dashboard goes through here: the same /v1 API and bearer token as any client.
// The token is kept in sessionStorage only (gone when the tab closes), never in a URL or a log.

const KEY = 'lineup.token';

export const token = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

/** An error answer of the API: HTTP status, the error code and the server's message. */
export class ApiError extends Error {
  constructor(status, code, message, field, body) {
    super(message || code || 'HTTP ' + status);
    this.status = status;
    this.code = code;
    this.field = field;
    // The whole error answer: some carry more than the message (count_mismatch its count).
    this.body = body || null;
  }

  /** A sentence for people, saying clearly what went wrong. */
  describe() {
    if (this.status === 403) {
      return 'Not allowed: this token may not do that (' + this.message + ').';
    }
    if (this.status === 401) return 'The token was refused (' + this.message + '). Log in again.';
    if (this.status === 404) return 'Not found: ' + this.message + '.';
    if (this.status === 503) return 'The server cannot reach Redis right now.';
    if (this.status === 502 || this.status === 504) return 'The server did not answer (HTTP ' + this.status + ' from the way to it).';
    if (this.status === 0) return 'The server did not answer (' + this.message + ').';
    return 'The server refused this (' + (this.code || this.status) + '): ' + this.message;
  }
}

/** Encodes one path segment. */
export const seg = encodeURIComponent;

/**
 * Calls the API. Answers the parsed JSON (null for 204).
 * @throws ApiError for any answer other than 2xx, and with status 0 when there is no answer
 */
export async function call(method, path, body, bearer = token.get()) {
  const headers = { Accept: 'application/json' };
  if (bearer) headers.Authorization = 'Bearer ' + bearer;
  const init = { method, headers, cache: 'no-store', credentials: 'omit', redirect: 'error' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'unreachable', String(e.message || e));
  }
  if (answer.status === 204) return null;
  let json = null;
  try {
    json = await answer.json();
  } catch (e) {
    json = null;
  }
  if (!answer.ok) {
    throw new ApiError(answer.status, json && json.error, json && json.message, json && json.field, json);
  }
  return json;
}

export const get = (path) => call('GET', path);
export const post = (path, body) => call('POST', path, body === undefined ? {} : body);
export const patch = (path, body) => call('PATCH', path, body);
export const del = (path) => call('DELETE', path);
