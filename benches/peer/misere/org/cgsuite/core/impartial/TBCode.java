// Stand-in for CGSuite's Scala TBCode (MsvLoader, which the benchmark does not use,
// names it).
package org.cgsuite.core.impartial;

public final class TBCode {
    private final String code;

    private TBCode(String code) {
        this.code = code;
    }

    public static TBCode apply(String code) {
        return new TBCode(code);
    }

    @Override
    public String toString() {
        return code;
    }
}
