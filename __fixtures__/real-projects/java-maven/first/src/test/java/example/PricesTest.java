package example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PricesTest {

  @Test
  void addsAmounts() {
    assertEquals(6, new Prices().total(new int[] {1, 2, 3}));
  }

  @Test
  void discountsLargeTotals() {
    assertEquals(20, new Prices().discount(200));
  }
}
