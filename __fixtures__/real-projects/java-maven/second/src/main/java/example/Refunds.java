package example;

import java.util.Random;

// New code of the second revision: an issue, security hotspots and more than 20 lines no test
// covers (servers from 2025 on ignore coverage conditions on fewer new lines).
public class Refunds {

  // A clear-text protocol: a security hotspot (S5332).
  private static final String REFUNDS_SERVICE = "http://refunds.example.com/api";

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

  public String service() {
    return REFUNDS_SERVICE;
  }

  public int fee(int amount, boolean express, boolean abroad) {
    int fee = 0;
    if (express) {
      fee = fee + 5;
    }
    if (abroad) {
      fee = fee + 10;
    }
    if (amount > 1000) {
      fee = fee + amount / 100;
    } else if (amount > 100) {
      fee = fee + 2;
    } else {
      fee = fee + 1;
    }
    return fee;
  }

  public String reasonLabel(int code) {
    switch (code) {
      case 1:
        return "damaged";
      case 2:
        return "late";
      case 3:
        return "wrong item";
      default:
        return "other";
    }
  }
}
