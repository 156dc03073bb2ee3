// OpnfVerbose.java: where ggp-base's OptimizingPropNetFactory spends its
// time on a game: create() with verbose on, which prints each step and
// each sentence form as it starts.  Time-stamp the lines to read the time
// per form, e.g. (classes compiled as perf/opnf.sh does):
//
//   java -Xmx8g -cp CLASSES:GUAVA OpnfVerbose GAME.kif \
//     | perl -MTime::HiRes=time -ne 'BEGIN{$t=time} printf "%.2f %s", time-$t, $_'
//
// The last line is `seconds S components C`.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.propnet.architecture.PropNet;
import org.ggp.base.util.propnet.factory.OptimizingPropNetFactory;
public class OpnfVerbose {
  public static void main(String[] args) throws Exception {
    String text = new String(Files.readAllBytes(Paths.get(args[0])));
    List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
    long t0 = System.nanoTime();
    PropNet pn = OptimizingPropNetFactory.create(rules, true);
    System.out.println("seconds " + (System.nanoTime() - t0) / 1e9 + " components " + pn.getComponents().size());
  }
}
