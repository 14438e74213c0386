package example;

import java.util.Random;

public class Prices {

  public int total(int[] amounts) {
    int sum = 0;
    for (int amount : amounts) {
      sum += amount;
    }
    return sum;
  }

  public int discount(int total) {
    if (total > 100) {
      return total / 10;
    }
    return 0;
  }

  // A pseudorandom generator where security may matter: a security hotspot (S2245).
  public int ticket() {
    return new Random().nextInt(1000);
  }

  public String label(int total, String currency) {
    StringBuilder text = new StringBuilder();
    text.append("Total: ");
    text.append(total);
    text.append(' ');
    text.append(currency);
    if (total > 1000) {
      text.append(" (large)");
    }
    if (total < 0) {
      text.append(" (refund)");
    }
    if (currency.isEmpty()) {
      text.append("?");
    }
    text.append('.');
    return text.toString();
  }
}
