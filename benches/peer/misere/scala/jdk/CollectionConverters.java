// Stand-in for Scala's CollectionConverters: only what MisereSolver uses.
package scala.jdk;

import scala.collection.immutable.IndexedSeq;

public final class CollectionConverters {
    private CollectionConverters() {
    }

    public static <T> IndexedSeq<T> SeqHasAsJava(IndexedSeq<T> seq) {
        return seq;
    }
}
