package io.looplab.reserve;

/** No seat is left for a customer: each seat is sold, or held for a customer who is paying for it right now. */
public class SoldOutException extends RuntimeException {

  public SoldOutException(String customer) {
    super("sold out: no seat left for " + customer);
  }
}
