// OpnfCount.java: the peer of `gdlog ground --stats` for propnet size
// (perf/opnf.sh): builds a game's propnet with ggp-base's
// OptimizingPropNetFactory and prints one line of figures:
//
//   java OpnfCount GAME.kif
//   -> seconds S components C links L and A or O not N transitions T
//      props P legal G input I components_optimised C2
//
// components is getComponents().size() of what create() returns, as the
// issue's OPNF figures count it; components_optimised is the count after
// ggp-base's optional passes (removeAnonymousPropositions, removeInits,
// removeUnreachableBasesAndInputs, lopUselessLeaves), in that order.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.propnet.architecture.Component;
import org.ggp.base.util.propnet.architecture.PropNet;
import org.ggp.base.util.propnet.architecture.components.And;
import org.ggp.base.util.propnet.architecture.components.Not;
import org.ggp.base.util.propnet.architecture.components.Or;
import org.ggp.base.util.propnet.architecture.components.Proposition;
import org.ggp.base.util.propnet.architecture.components.Transition;
import org.ggp.base.util.propnet.factory.OptimizingPropNetFactory;

public class OpnfCount {
  public static void main(String[] args) throws Exception {
    String text = new String(Files.readAllBytes(Paths.get(args[0])));
    List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
    long t0 = System.nanoTime();
    PropNet pn = OptimizingPropNetFactory.create(rules);
    double seconds = (System.nanoTime() - t0) / 1e9;
    StringBuilder out = new StringBuilder(String.format("seconds %.3f", seconds));
    count(pn, out);
    int legal = 0;
    for (Set<Proposition> s : pn.getLegalPropositions().values()) legal += s.size();
    out.append(" legal ").append(legal).append(" input ").append(pn.getInputPropositions().size());
    optimise(pn);
    out.append(" components_optimised ").append(pn.getComponents().size());
    System.out.println(out);
  }

  // Components by class into out.
  static void count(PropNet pn, StringBuilder out) {
    int and = 0, or = 0, not = 0, transitions = 0, props = 0;
    for (Component c : pn.getComponents()) {
      if (c instanceof And) and++;
      else if (c instanceof Or) or++;
      else if (c instanceof Not) not++;
      else if (c instanceof Transition) transitions++;
      else if (c instanceof Proposition) props++;
    }
    out.append(" components ").append(pn.getComponents().size()).append(" links ").append(pn.getNumLinks());
    out.append(" and ").append(and).append(" or ").append(or).append(" not ").append(not);
    out.append(" transitions ").append(transitions).append(" props ").append(props);
  }

  // ggp-base's optional passes; the bases that init makes true are those
  // whose transition reads the init proposition, alone or in an or.
  static void optimise(PropNet pn) throws Exception {
    Set<Proposition> trueByInit = new HashSet<>();
    Proposition init = pn.getInitProposition();
    for (Proposition b : pn.getBasePropositions().values()) {
      Component in = b.getSingleInput().getSingleInput();
      if (in == init || (in instanceof Or && in.getInputs().contains(init))) trueByInit.add(b);
    }
    OptimizingPropNetFactory.removeAnonymousPropositions(pn);
    OptimizingPropNetFactory.removeInits(pn);
    OptimizingPropNetFactory.removeUnreachableBasesAndInputs(pn, trueByInit);
    OptimizingPropNetFactory.lopUselessLeaves(pn);
  }
}
