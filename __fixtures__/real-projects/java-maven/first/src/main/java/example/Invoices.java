package example;

public class Invoices {

  public int count(int[] lines) {
    int unused = 42;
    return lines.length;
  }

  // The same block as Prices.label: duplicated lines.
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
