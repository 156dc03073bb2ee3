// OpnfPlay.java: ggp-base's OptimizingPropNetFactory on one KIF file, built
// and played (perf/reducer.sh).  Builds the propnet with
// OptimizingPropNetFactory.create (timed), then runs random playouts from
// the initial state for a fixed time on a plain propnet state machine and
// prints one line (the propnet's components and links as create() returns
// them, as perf/peer/OpnfCount.java counts them):
//
//   java OpnfPlay GAME.kif [SECONDS [ORIGINAL.kif CHECKS [SEED [WARMUP_SECONDS]]]]
//   -> build_seconds B components C links L playouts P states S seconds T
//      playouts_per_second R cpu_seconds U playouts_per_cpu_second Q
//      [checked N]
//
// The state machine is the plainest one: every component gets an index in a
// topological order (transitions cut the cycles: base propositions are
// read from the state), and each query recomputes every gate in that order,
// twice per step: once from the state alone (legal, terminal, goal), once
// with the chosen moves' does propositions (the transitions give the next
// state).  Nothing is cached or skipped, so the time per step follows the
// size of the propnet (components and links), which is what the benchmark
// compares across texts of the same game.  A playout picks a uniformly
// random legal move per role per step until a terminal state, whose goals
// are then read.  Untimed playouts for WARMUP_SECONDS (default 1) come
// first, for the JIT compiler; then SECONDS of timed ones.  playouts_per_cpu_second divides by the CPU
// time of the playing thread, which other processes on a busy machine
// disturb less than wall time.
//
// With ORIGINAL.kif and CHECKS > 0, before the timed playouts, CHECKS random
// playouts are played on ggp-base's ProverStateMachine over ORIGINAL.kif
// and on the propnet side by side, the prover choosing the moves; at every
// state the roles, terminal, each role's legal moves and, in terminal
// states, the goals must agree (compared as lower-cased text).  A mismatch
// is printed on stderr and the exit status is 3 (ORIGINAL.kif is only read
// when CHECKS > 0: pass - and 0 to give a SEED without checking).  SECONDS
// defaults to 10, SEED to 1.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.gdl.grammar.GdlRelation;
import org.ggp.base.util.gdl.grammar.GdlSentence;
import org.ggp.base.util.propnet.architecture.Component;
import org.ggp.base.util.propnet.architecture.PropNet;
import org.ggp.base.util.propnet.architecture.components.And;
import org.ggp.base.util.propnet.architecture.components.Constant;
import org.ggp.base.util.propnet.architecture.components.Not;
import org.ggp.base.util.propnet.architecture.components.Or;
import org.ggp.base.util.propnet.architecture.components.Proposition;
import org.ggp.base.util.propnet.architecture.components.Transition;
import org.ggp.base.util.propnet.factory.OptimizingPropNetFactory;
import org.ggp.base.util.statemachine.MachineState;
import org.ggp.base.util.statemachine.Move;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.statemachine.StateMachine;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;

public class OpnfPlay {
  static List<Gdl> rules(String file) throws Exception {
    String text = new String(Files.readAllBytes(Paths.get(file)));
    return Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
  }

  public static void main(String[] args) throws Exception {
    double playSeconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
    int checks = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
    double warmSeconds = args.length > 5 ? Double.parseDouble(args[5]) : 1;
    List<Gdl> rules = rules(args[0]);
    long t0 = System.nanoTime();
    PropNet pn = OptimizingPropNetFactory.create(rules);
    int links = pn.getNumLinks();
    Net net = new Net(pn);
    double build = (System.nanoTime() - t0) / 1e9;
    System.err.println("built in " + build + " s");

    String checked = "";
    if (checks > 0) {
      String err = check(net, rules(args[2]), checks, new Random(seed));
      if (err != null) {
        System.err.println("check failed: " + err);
        System.out.println(String.format("build_seconds %.3f components %d links %d check_failed", build, net.n, links));
        System.exit(3);
      }
      checked = " checked " + checks;
    }

    Player player = new Player(net, new Random(seed));
    player.play(warmSeconds);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime(), start = System.nanoTime();
    long[] n = player.play(playSeconds);
    double seconds = (System.nanoTime() - start) / 1e9, cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    System.out.println(String.format(
        "build_seconds %.3f components %d links %d playouts %d states %d seconds %.3f playouts_per_second %.1f"
            + " cpu_seconds %.3f playouts_per_cpu_second %.1f%s",
        build, net.n, links, n[0], n[1], seconds, n[0] / seconds, cpu, n[0] / cpu, checked));
  }

  // Random playouts from the initial state.
  static final class Player {
    final Net net;
    final Random rnd;
    final boolean[] state;
    final int[] chosen;
    long goalSum;

    Player(Net net, Random rnd) {
      this.net = net;
      this.rnd = rnd;
      state = new boolean[net.bases.length];
      chosen = new int[net.roles.size()];
    }

    // Playouts for `seconds`; {playouts finished, states reached}.
    long[] play(double seconds) {
      long playouts = 0, states = 0;
      long limit = (long) (seconds * 1e9), start = System.nanoTime();
      outer:
      while (System.nanoTime() - start < limit) {
        System.arraycopy(net.initial, 0, state, 0, state.length);
        while (true) {
          net.propagate(state, null);
          if (net.terminal()) break;
          if (System.nanoTime() - start >= limit) break outer;
          for (int r = 0; r < chosen.length; r++) {
            int[] legal = net.legalNow(r);
            if (legal.length == 0) throw new IllegalStateException("no legal move for " + net.roles.get(r));
            chosen[r] = legal[rnd.nextInt(legal.length)];
          }
          net.propagate(state, chosen);
          net.next(state);
          states++;
        }
        for (int r = 0; r < chosen.length; r++) goalSum += net.goal(r);
        playouts++;
      }
      return new long[] {playouts, states};
    }
  }

  // A propnet flattened into arrays, evaluated gate by gate in topological
  // order.
  static final class Net {
    static final int PROP = 0, AND = 1, OR = 2, NOT = 3, TRANSITION = 4, TRUE = 5, FALSE = 6, SET = 7;
    final int n;
    final int[] type;
    final int[][] inputs;
    final int[] order;          // components in evaluation order
    final boolean[] value;
    final int[] bases;          // base propositions, state slot i is bases[i]
    final int[] baseTransition; // the transition feeding bases[i]
    final boolean[] initial;    // the initial state
    final List<String> roles = new ArrayList<>();
    final int[][] legal;        // per role: legal propositions
    final int[][] legalInput;   // per role: the does proposition of each legal one (-1: none)
    final String[][] legalMove; // per role: the move's text
    final int[][] goalProp;     // per role: goal propositions
    final int[][] goalValue;
    final int terminal;
    final int init;
    final List<Integer> inputsSet = new ArrayList<>();

    static String lc(Object o) { return o.toString().toLowerCase(); }

    Net(PropNet pn) {
      List<Component> comps = new ArrayList<>(pn.getComponents());
      n = comps.size();
      Map<Component, Integer> index = new HashMap<>();
      for (int i = 0; i < n; i++) index.put(comps.get(i), i);
      type = new int[n];
      inputs = new int[n][];
      value = new boolean[n];
      for (Role r : pn.getRoles()) roles.add(lc(r.getName()));
      Proposition initProp = pn.getInitProposition();
      init = initProp == null ? -1 : index.get(initProp);
      int term = -1;
      List<Integer> baseList = new ArrayList<>(), transList = new ArrayList<>();
      Map<String, Integer> does = new HashMap<>();
      List<List<Integer>> legalL = new ArrayList<>(), goalL = new ArrayList<>(), goalV = new ArrayList<>();
      for (int r = 0; r < roles.size(); r++) { legalL.add(new ArrayList<>()); goalL.add(new ArrayList<>()); goalV.add(new ArrayList<>()); }
      for (int i = 0; i < n; i++) {
        Component c = comps.get(i);
        Set<Component> in = c.getInputs();
        inputs[i] = new int[in.size()];
        int k = 0;
        for (Component x : in) inputs[i][k++] = index.get(x);
        if (c instanceof And) type[i] = AND;
        else if (c instanceof Or) type[i] = OR;
        else if (c instanceof Not) type[i] = NOT;
        else if (c instanceof Transition) type[i] = TRANSITION;
        else if (c instanceof Constant) type[i] = c.getValue() ? TRUE : FALSE;
        else if (c instanceof Proposition) {
          type[i] = PROP;
          GdlSentence name = ((Proposition) c).getName();
          String rel = lc(name.getName());
          if (in.size() == 1 && in.iterator().next() instanceof Transition) {
            type[i] = SET;
            baseList.add(i);
            transList.add(inputs[i][0]);
          } else if (i == init) {
            type[i] = SET;
          } else if (rel.equals("terminal") && name.arity() == 0) {
            term = i;
          } else if (name instanceof GdlRelation && name.arity() == 2) {
            int r = roles.indexOf(lc(name.get(0)));
            if (r >= 0 && rel.equals("does")) {
              type[i] = SET;
              does.put(r + " " + lc(name.get(1)), i);
            } else if (r >= 0 && rel.equals("legal")) {
              legalL.get(r).add(i);
            } else if (r >= 0 && rel.equals("goal")) {
              goalL.get(r).add(i);
              goalV.get(r).add(Integer.parseInt(name.get(1).toString()));
            }
          }
        }
      }
      terminal = term;
      bases = baseList.stream().mapToInt(Integer::intValue).toArray();
      baseTransition = transList.stream().mapToInt(Integer::intValue).toArray();
      int nr = roles.size();
      legal = new int[nr][];
      legalInput = new int[nr][];
      legalMove = new String[nr][];
      goalProp = new int[nr][];
      goalValue = new int[nr][];
      for (int r = 0; r < nr; r++) {
        legal[r] = legalL.get(r).stream().mapToInt(Integer::intValue).toArray();
        goalProp[r] = goalL.get(r).stream().mapToInt(Integer::intValue).toArray();
        goalValue[r] = goalV.get(r).stream().mapToInt(Integer::intValue).toArray();
        legalInput[r] = new int[legal[r].length];
        legalMove[r] = new String[legal[r].length];
        for (int j = 0; j < legal[r].length; j++) {
          String m = lc(((Proposition) comps.get(legal[r][j])).getName().get(1));
          legalMove[r][j] = m;
          Integer d = does.get(r + " " + m);
          legalInput[r][j] = d == null ? -1 : d;
        }
      }
      order = topologicalOrder();
      // The initial state: init true, every base and does false.
      if (init >= 0) value[init] = true;
      evaluate();
      initial = new boolean[bases.length];
      for (int b = 0; b < bases.length; b++) initial[b] = value[baseTransition[b]];
      if (init >= 0) value[init] = false;
    }

    // Kahn's algorithm over the links, leaving out the links into base
    // propositions (from transitions) and into the propositions set from
    // outside.
    int[] topologicalOrder() {
      int[] pending = new int[n];
      List<List<Integer>> out = new ArrayList<>();
      for (int i = 0; i < n; i++) out.add(new ArrayList<>());
      for (int i = 0; i < n; i++) {
        if (type[i] == SET) continue;
        for (int j : inputs[i]) { out.get(j).add(i); pending[i]++; }
      }
      ArrayDeque<Integer> ready = new ArrayDeque<>();
      for (int i = 0; i < n; i++) if (pending[i] == 0) ready.add(i);
      int[] ord = new int[n];
      int k = 0;
      while (!ready.isEmpty()) {
        int i = ready.poll();
        ord[k++] = i;
        for (int j : out.get(i)) if (--pending[j] == 0) ready.add(j);
      }
      if (k != n) throw new IllegalStateException("propnet has a cycle outside transitions (" + (n - k) + " components)");
      return ord;
    }

    void evaluate() {
      final boolean[] v = value;
      for (int i : order) {
        int[] in = inputs[i];
        switch (type[i]) {
          case PROP: v[i] = in.length == 1 && v[in[0]]; break;
          case TRANSITION: v[i] = v[in[0]]; break;
          case NOT: v[i] = !v[in[0]]; break;
          case AND: {
            boolean x = true;
            for (int j : in) if (!v[j]) { x = false; break; }
            v[i] = x;
            break;
          }
          case OR: {
            boolean x = false;
            for (int j : in) if (v[j]) { x = true; break; }
            v[i] = x;
            break;
          }
          case TRUE: v[i] = true; break;
          case FALSE: v[i] = false; break;
          default: break; // SET: base, does, init
        }
      }
    }

    // Every gate from the state and, when chosen is not null, the moves
    // (an index into legal[r] per role).
    void propagate(boolean[] state, int[] chosen) {
      for (int b = 0; b < bases.length; b++) value[bases[b]] = state[b];
      for (int i : inputsSet) value[i] = false;
      inputsSet.clear();
      if (chosen != null) {
        for (int r = 0; r < chosen.length; r++) {
          int d = legalInput[r][chosen[r]];
          if (d >= 0) { value[d] = true; inputsSet.add(d); }
        }
      }
      evaluate();
    }

    void next(boolean[] state) {
      for (int b = 0; b < bases.length; b++) state[b] = value[baseTransition[b]];
    }

    boolean terminal() { return terminal >= 0 && value[terminal]; }

    private int[] buf = new int[16];
    // Indices into legal[r] of the legal moves now.
    int[] legalNow(int r) {
      int k = 0;
      int[] l = legal[r];
      if (buf.length < l.length) buf = new int[l.length];
      for (int j = 0; j < l.length; j++) if (value[l[j]]) buf[k++] = j;
      int[] res = new int[k];
      System.arraycopy(buf, 0, res, 0, k);
      return res;
    }

    // The goal value of role r now, -1 if not exactly one holds.
    int goal(int r) {
      int g = -1, count = 0;
      for (int j = 0; j < goalProp[r].length; j++) if (value[goalProp[r][j]]) { g = goalValue[r][j]; count++; }
      return count == 1 ? g : -1;
    }
  }

  // Plays `playouts` random playouts on the prover over the original rules
  // and on the net side by side; the first difference, or null.
  static String check(Net net, List<Gdl> original, int playouts, Random rnd) throws Exception {
    StateMachine sm = new ProverStateMachine();
    sm.initialize(original);
    List<Role> proles = sm.getRoles();
    List<String> names = new ArrayList<>();
    for (Role r : proles) names.add(Net.lc(r.getName()));
    if (!names.equals(net.roles)) return "roles " + names + " against " + net.roles;
    for (int p = 0; p < playouts; p++) {
      MachineState ps = sm.getInitialState();
      boolean[] state = net.initial.clone();
      for (int step = 0; ; step++) {
        net.propagate(state, null);
        String where = "playout " + (p + 1) + " step " + step;
        boolean pt = sm.isTerminal(ps);
        if (pt != net.terminal()) return where + ": terminal " + pt + " against " + net.terminal();
        if (pt) {
          for (int r = 0; r < proles.size(); r++) {
            int g;
            try { g = sm.getGoal(ps, proles.get(r)); } catch (Exception e) { g = -1; }
            if (g != net.goal(r)) return where + ": goal of " + names.get(r) + " " + g + " against " + net.goal(r);
          }
          break;
        }
        List<Move> joint = new ArrayList<>();
        int[] chosen = new int[proles.size()];
        for (int r = 0; r < proles.size(); r++) {
          List<Move> moves = sm.getLegalMoves(ps, proles.get(r));
          Set<String> a = new TreeSet<>(), b = new TreeSet<>();
          for (Move m : moves) a.add(Net.lc(m.getContents()));
          int[] now = net.legalNow(r);
          for (int j : now) b.add(net.legalMove[r][j]);
          if (!a.equals(b)) return where + ": legal moves of " + names.get(r) + " " + a + " against " + b;
          Move m = moves.get(rnd.nextInt(moves.size()));
          joint.add(m);
          String text = Net.lc(m.getContents());
          chosen[r] = -1;
          for (int j : now) if (net.legalMove[r][j].equals(text)) chosen[r] = j;
        }
        ps = sm.getNextState(ps, joint);
        net.propagate(state, chosen);
        net.next(state);
      }
    }
    return null;
  }
}
