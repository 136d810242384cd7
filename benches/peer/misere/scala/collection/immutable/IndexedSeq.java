// Stand-in for Scala's IndexedSeq: only what MisereSolver uses.
package scala.collection.immutable;

import java.util.List;

public final class IndexedSeq<T> {
    private final List<T> items;

    public IndexedSeq(List<T> items) {
        this.items = items;
    }

    public int length() {
        return items.size();
    }

    public T apply(int i) {
        return items.get(i);
    }

    public IndexedSeq<T> toSeq() {
        return this;
    }

    public List<T> asJava() {
        return items;
    }
}
