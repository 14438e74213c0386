package example;

import java.util.Random;

// New code of the second revision: an issue, a security hotspot and lines no test covers.
public class Refunds {

  public int refund(int paid, int kept) {
    int unused = paid * 2;
    if (kept > paid) {
      return 0;
    }
    return paid - kept;
  }

  public boolean allowed(String reason) {
    if (reason == null) {
      return false;
    }
    return reason.length() > 3;
  }

  public int voucher() {
    return new Random().nextInt(100);
  }
}
