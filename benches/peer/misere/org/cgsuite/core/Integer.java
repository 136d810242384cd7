// Stand-in for CGSuite's Scala org.cgsuite.core.Integer: only what MisereSolver uses.
package org.cgsuite.core;

public final class Integer {
    private final int value;

    private Integer(int value) {
        this.value = value;
    }

    public static Integer apply(int value) {
        return new Integer(value);
    }

    public int intValue() {
        return value;
    }
}
