// Times Siegel's MisereSolver (CGSuite's sources, compiled beside the stand-ins in
// this folder) on take-and-break codes: for each argument `code:maxHeap`, the best of
// `--repeat` runs from scratch to `maxHeap`, printed as
// `code maxHeap order pPortionSize seconds`.
import java.util.ArrayList;
import java.util.List;
import org.cgsuite.core.impartial.TakeAndBreak;
import org.cgsuite.core.misere.solver.MisereSolver;
import org.cgsuite.core.misere.solver.Pretension;

public final class MisereBench {
    public static void main(String[] args) {
        int repeat = 1;
        List<String> cases = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--repeat")) {
                repeat = Integer.parseInt(args[++i]);
            } else {
                cases.add(args[i]);
            }
        }
        for (String c : cases) {
            String code = c.substring(0, c.indexOf(':'));
            int maxHeap = Integer.parseInt(c.substring(c.indexOf(':') + 1));
            double best = Double.MAX_VALUE;
            Pretension p = null;
            for (int r = 0; r < repeat; r++) {
                long start = System.nanoTime();
                MisereSolver ms = new MisereSolver(TakeAndBreak.apply(code));
                while (ms.currentPretension().getPrefn().size() <= maxHeap) {
                    ms.next();
                }
                best = Math.min(best, (System.nanoTime() - start) / 1e9);
                p = ms.currentPretension();
            }
            System.out.println(code + " " + maxHeap + " " + p.getQuotient().getMonoid().size()
                + " " + p.getQuotient().pPortionSize() + " " + best);
            System.out.flush();
        }
    }
}
