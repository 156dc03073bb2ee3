// SanchoBench.java: Sancho 1.61c's propnet state machine on one KIF file
// (perf/reducer.sh).  Builds the machine as AlexLandau/gdl-perf does
// (SanchoRunnables: initialize, enableGreedyRollouts(false, true),
// optimizeStateTransitionMechanism with a 5 s budget), then runs random
// playouts from the initial state for a fixed time and prints one line:
//
//   java SanchoBench GAME.kif [SECONDS [OPTIMISE_SECONDS [WARMUP_SECONDS]]]
//   -> build_seconds B initialize_seconds I components C playouts P
//      states S seconds T playouts_per_second R cpu_seconds U
//      playouts_per_cpu_second Q
//
// initialize_seconds covers parsing the rules with Sancho's own GDL classes
// and building its propnet (initialize); build_seconds adds
// optimizeStateTransitionMechanism, which tries its variants of the
// state transition for as long as its budget allows (OPTIMISE_SECONDS,
// default 5 as in gdl-perf) and so takes about that long on any game.
// components is the size of Sancho's full propnet after the build.
//
// A playout is a depth charge: a random legal move per role per step
// (Sancho's ForwardDeadReckonLegalMoveSet.getRandomMove) until a terminal
// state, whose goals are then read, as gdl-perf's JavaPerfTestRunnable does.
// Untimed playouts for WARMUP_SECONDS (default 1) come first, for the JIT
// compiler; then SECONDS (default 10) of timed ones.
// playouts_per_cpu_second divides by the CPU time of the playing thread,
// which other processes on a busy machine disturb less than wall time.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.repackage.sancho_v1_61c.org.ggp.base.util.game.Game;
import org.repackage.sancho_v1_61c.org.ggp.base.util.gdl.grammar.Gdl;
import org.repackage.sancho_v1_61c.org.ggp.base.util.propnet.polymorphic.forwardDeadReckon.ForwardDeadReckonInternalMachineState;
import org.repackage.sancho_v1_61c.org.ggp.base.util.propnet.polymorphic.forwardDeadReckon.ForwardDeadReckonLegalMoveInfo;
import org.repackage.sancho_v1_61c.org.ggp.base.util.propnet.polymorphic.forwardDeadReckon.ForwardDeadReckonLegalMoveSet;
import org.repackage.sancho_v1_61c.org.ggp.base.util.statemachine.Role;
import org.repackage.sancho_v1_61c.org.ggp.base.util.statemachine.implementation.propnet.forwardDeadReckon.ForwardDeadReckonPropnetStateMachine;

public class SanchoBench {
  public static void main(String[] args) throws Exception {
    String text = new String(Files.readAllBytes(Paths.get(args[0])));
    double playSeconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
    double optimiseSeconds = args.length > 2 ? Double.parseDouble(args[2]) : 5;
    double warmSeconds = args.length > 3 ? Double.parseDouble(args[3]) : 1;

    long t0 = System.nanoTime();
    List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
    ForwardDeadReckonPropnetStateMachine sm = new ForwardDeadReckonPropnetStateMachine();
    sm.initialize(rules);
    double init = (System.nanoTime() - t0) / 1e9;
    sm.enableGreedyRollouts(false, true);
    sm.optimizeStateTransitionMechanism(System.currentTimeMillis() + (long) (optimiseSeconds * 1000));
    ForwardDeadReckonInternalMachineState initial = sm.createInternalState(sm.getInitialState());
    double build = (System.nanoTime() - t0) / 1e9;
    int components = sm.getFullPropNet() == null ? -1 : sm.getFullPropNet().getComponents().size();
    System.err.println("built in " + build + " s");

    Player player = new Player(sm, initial);
    player.play(warmSeconds);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime(), start = System.nanoTime();
    long[] n = player.play(playSeconds);
    double seconds = (System.nanoTime() - start) / 1e9, cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    System.out.println(String.format(
        "build_seconds %.3f initialize_seconds %.3f components %d playouts %d states %d seconds %.3f"
            + " playouts_per_second %.1f cpu_seconds %.3f playouts_per_cpu_second %.1f",
        build, init, components, n[0], n[1], seconds, n[0] / seconds, cpu, n[0] / cpu));
    System.out.flush();
    System.exit(0);
  }

  // Random playouts from the initial state.
  static final class Player {
    final ForwardDeadReckonPropnetStateMachine sm;
    final ForwardDeadReckonInternalMachineState initial, cur, next;
    final Role[] roles;
    final ForwardDeadReckonLegalMoveInfo[] chosen;
    long goalSum;

    Player(ForwardDeadReckonPropnetStateMachine sm, ForwardDeadReckonInternalMachineState initial) {
      this.sm = sm;
      this.initial = initial;
      cur = sm.createEmptyInternalState();
      next = sm.createEmptyInternalState();
      roles = sm.getRoles();
      chosen = new ForwardDeadReckonLegalMoveInfo[sm.getNumRoles()];
    }

    // Playouts for `seconds`; {playouts finished, states reached}.
    long[] play(double seconds) {
      long playouts = 0, states = 0;
      long limit = (long) (seconds * 1e9), start = System.nanoTime();
      outer:
      while (System.nanoTime() - start < limit) {
        cur.copy(initial);
        while (!sm.isTerminal(cur)) {
          if ((states & 15) == 0 && System.nanoTime() - start >= limit) break outer;
          ForwardDeadReckonLegalMoveSet moves = sm.getLegalMoveSet(cur);
          for (int r = 0; r < chosen.length; r++) chosen[r] = moves.getRandomMove(r);
          sm.getNextState(cur, null, chosen, next);
          cur.copy(next);
          states++;
        }
        for (Role role : roles) goalSum += sm.getGoal(cur, role);
        playouts++;
      }
      return new long[] {playouts, states};
    }
  }
}
