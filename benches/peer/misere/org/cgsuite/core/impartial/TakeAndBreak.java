// Stand-in for CGSuite's Scala TakeAndBreak: the options of an octal or hexadecimal
// code d0.d1d2... (digit dk, for taking k: bit 1 leaves no heap, bit 2 one heap,
// bit 4 two heaps, bit 8 three heaps, every heap left nonempty).
package org.cgsuite.core.impartial;

import java.util.ArrayList;
import java.util.List;

public final class TakeAndBreak extends HeapRuleset {
    private final String code;
    private final int[] digits;

    private TakeAndBreak(String code) {
        this.code = code;
        String[] parts = code.split("\\.", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("not a take-and-break code: " + code);
        }
        String all = (parts[0].isEmpty() ? "0" : parts[0]) + parts[1];
        digits = new int[all.length()];
        for (int k = 0; k < all.length(); k++) {
            digits[k] = Character.digit(all.charAt(k), 16);
        }
    }

    public static TakeAndBreak apply(String code) {
        return new TakeAndBreak(code);
    }

    @Override
    public List<int[]> options(int heap) {
        List<int[]> out = new ArrayList<>();
        for (int k = 0; k < digits.length && k <= heap; k++) {
            int rest = heap - k;
            int d = digits[k];
            if ((d & 1) != 0 && rest == 0 && k > 0) {
                out.add(new int[0]);
            }
            if ((d & 2) != 0 && rest >= 1 && k > 0) {
                out.add(new int[] {rest});
            }
            if ((d & 4) != 0) {
                for (int a = 1; 2 * a <= rest; a++) {
                    out.add(new int[] {a, rest - a});
                }
            }
            if ((d & 8) != 0) {
                for (int a = 1; 3 * a <= rest; a++) {
                    for (int b = a; a + 2 * b <= rest; b++) {
                        out.add(new int[] {a, b, rest - a - b});
                    }
                }
            }
        }
        return out;
    }

    public TBCode tbCode() {
        return TBCode.apply(code);
    }

    @Override
    public String toString() {
        return code;
    }
}
