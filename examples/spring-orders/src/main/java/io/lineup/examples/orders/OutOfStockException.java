package io.lineup.examples.orders;

/** The order's item is sold out: the order is refused and its transaction rolled back. */
public class OutOfStockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The item that is sold out. */
  public OutOfStockException(String sku) {
    super("sold out: " + sku);
  }
}
