package io.lineup.dispatch;

import io.lineup.api.ErrorCode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Input that dispatch refuses: a bad endpoint setting, task or callback prefix, a body over the
 * limit, a URL the egress policy never lets a request reach. Nothing was stored or queued.
 */
public final class DispatchInputException extends DispatchException {
  private final ErrorCode code;
  private final String field;
  private final Map<String, Object> details = new LinkedHashMap<>();

  /**
   * @param code what kind of refusal ({@code invalid_field}, {@code payload_too_large}, {@code
   *     egress_refused}, ...)
   * @param field the field at fault, by its path in the request (e.g. {@code headers.accept}), or
   *     null
   * @param message why, for the caller
   */
  public DispatchInputException(ErrorCode code, String field, String message) {
    super(message);
    this.code = code;
    this.field = field;
  }

  /** An {@code invalid_field} refusal of one field. */
  public static DispatchInputException invalidField(String field, String message) {
    return new DispatchInputException(ErrorCode.INVALID_FIELD, field, message);
  }

  /** Adds a detail (such as the egress policy's reason); returns this exception. */
  DispatchInputException with(String name, Object value) {
    details.put(name, value);
    return this;
  }

  /** The kind of refusal. */
  public ErrorCode code() {
    return code;
  }

  /** The field at fault, or null. */
  public String field() {
    return field;
  }

  /** Further details by name, in the order added (unmodifiable). */
  public Map<String, Object> details() {
    return Collections.unmodifiableMap(details);
  }
}
