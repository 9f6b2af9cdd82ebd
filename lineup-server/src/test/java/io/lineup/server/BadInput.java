package io.lineup.server;

/**
 * One row of the bad-input table: a request and the answer it must get.
 *
 * @param method HTTP method
 * @param path path with query
 * @param body request body, or null
 * @param token the token to send (null: the admin's)
 * @param status expected status
 * @param error expected {@code error} code
 * @param field expected {@code field}, or null when the answer names none
 */
record BadInput(
    String method, String path, String body, String token, int status, String error, String field) {

  static BadInput post(String path, String body) {
    return new BadInput("POST", path, body, null, 0, null, null);
  }

  static BadInput patch(String path, String body) {
    return new BadInput("PATCH", path, body, null, 0, null, null);
  }

  static BadInput get(String path) {
    return new BadInput("GET", path, null, null, 0, null, null);
  }

  static BadInput delete(String path) {
    return new BadInput("DELETE", path, null, null, 0, null, null);
  }

  static BadInput send(String method, String path) {
    return new BadInput(method, path, null, null, 0, null, null);
  }

  /** The same request sent with another token. */
  BadInput withToken(String other) {
    return new BadInput(method, path, body, other, status, error, field);
  }

  /** The answer expected: status, error code and field (null: none). */
  BadInput answers(int expectedStatus, String expectedError, String expectedField) {
    return new BadInput(method, path, body, token, expectedStatus, expectedError, expectedField);
  }

  @Override
  public String toString() {
    String shown =
        body == null ? "" : " " + (body.length() > 60 ? body.substring(0, 57) + "..." : body);
    return method
        + " "
        + (path.length() > 70 ? path.substring(0, 67) + "..." : path)
        + shown
        + " -> "
        + status
        + " "
        + error
        + (field == null ? "" : " (" + field + ")");
  }
}
