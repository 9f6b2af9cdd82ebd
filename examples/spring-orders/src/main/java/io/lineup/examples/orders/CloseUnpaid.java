package io.lineup.examples.orders;

/**
 * The close job's payload (JSON on the queue).
 *
 * @param orderId the order to close if it is still unpaid
 */
public record CloseUnpaid(String orderId) {}
