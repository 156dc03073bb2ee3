// GdlValidate.java: ggp-base's StaticValidator on KIF files (perf/validate.sh):
// the checks a game must pass to be served by ggp-base's game server
// (syntax, arities, safety, stratification, GDL's keywords), through the
// gdl-validation library that ggp-base bundles.  One line per file:
//
//   java GdlValidate FILE...
//   -> FILE: valid, N warnings[: the first]   or   FILE: INVALID: reason
//
// Exit status 1 when a file is invalid.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.ggp.base.util.game.Game;
import org.ggp.base.validator.StaticValidator;
import org.ggp.base.validator.ValidatorException;
import org.ggp.base.validator.ValidatorWarning;

public class GdlValidate {
  public static void main(String[] args) throws Exception {
    int invalid = 0;
    for (String f : args) {
      String text = new String(Files.readAllBytes(Paths.get(f)));
      Game g = Game.createEphemeralGame(Game.preprocessRulesheet(text));
      try {
        List<ValidatorWarning> w = StaticValidator.validateDescription(g.getRules());
        System.out.println(f + ": valid, " + w.size() + " warnings" + (w.isEmpty() ? "" : ": " + w.get(0)));
      } catch (ValidatorException e) {
        System.out.println(f + ": INVALID: " + e.getMessage());
        invalid++;
      }
    }
    System.exit(invalid == 0 ? 0 : 1);
  }
}
