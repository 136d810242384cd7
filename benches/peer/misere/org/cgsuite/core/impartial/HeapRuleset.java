// Stand-in for CGSuite's Scala HeapRuleset: a heap's options as lists of heap sizes.
package org.cgsuite.core.impartial;

import java.util.ArrayList;
import java.util.List;
import scala.collection.immutable.IndexedSeq;

public abstract class HeapRuleset {
    /** Each option of a heap of `heap`, as the heap sizes it leaves (none: an empty list). */
    public abstract List<int[]> options(int heap);

    public IndexedSeq<IndexedSeq<org.cgsuite.core.Integer>> heapOptions(org.cgsuite.core.Integer heap) {
        List<IndexedSeq<org.cgsuite.core.Integer>> out = new ArrayList<>();
        for (int[] option : options(heap.intValue())) {
            List<org.cgsuite.core.Integer> heaps = new ArrayList<>();
            for (int h : option) {
                heaps.add(org.cgsuite.core.Integer.apply(h));
            }
            out.add(new IndexedSeq<>(heaps));
        }
        return new IndexedSeq<>(out);
    }

    public List<int[]> allOptions(int heap) {
        return options(heap);
    }
}
