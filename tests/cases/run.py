#!/usr/bin/env python3
"""run.py: runs test cases written as data (tests/cases/README.md).

A case is one file NAME.case: a command, its expected stdout, stderr and exit
status, and optionally input files of its own.  Usage:

  run.py --gdlog BUILD/gdlog [--shared DIR] [--wrap CMD] [--update] CASE.case...

--wrap CMD (or the environment variable GDLOG_WRAP) puts CMD before every run
of gdlog, e.g. --wrap 'valgrind -q --error-exitcode=99'.  Prints `ok NAME` or `FAIL NAME` and a diff per case, and last the line
`N passed, N failed, N skipped`.  Exit status 0 when none failed, 77 when every
case was skipped (ctest's skip code), 1 otherwise.  --update rewrites the
expected sections of the failing cases with what the command gave.
"""
import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

SECTIONS = ("command", "stdin", "stdout", "stderr", "status", "file", "requires", "timeout")


def parse_case(path):
    """Returns (comments, [(name, arg, text)]) of a case file."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    comments, sections, cur = [], [], None
    for line in lines:
        if line.startswith("--- "):
            words = line[4:].split(None, 1)
            name = words[0] if words else ""
            if name not in SECTIONS:
                raise ValueError(f"{path}: unknown section '--- {name}'")
            cur = [name, words[1].strip() if len(words) > 1 else "", []]
            sections.append(cur)
        elif cur is None:
            comments.append(line)
        else:
            cur[2].append(line)
    return comments, [(n, a, "".join(l + "\n" for l in t)) for n, a, t in sections]


def one(sections, name):
    found = [s for s in sections if s[0] == name]
    return found[0] if found else None


def missing_requirement(sections, args):
    for _, arg, text in (s for s in sections if s[0] == "requires"):
        for req in (arg + " " + text).split():
            if req == "shared":
                if not (args.shared and os.path.isdir(args.shared)):
                    return "needs ../shared/games beside the clone"
            elif req == "no-wrap":
                if args.wrap:
                    return "not run under --wrap (timing or signals)"
            elif req == "no-asan":
                if "address" in os.environ.get("GDLOG_SANITIZE", ""):
                    return "not run under AddressSanitizer (GDLOG_SANITIZE)"
            elif shutil.which(req) is None:
                return f"needs {req} on PATH"
    return None


def bin_dir(args, scratch):
    """The directory put first on PATH: gdlog (a link to the binary, or a script
    that runs it under --wrap) and python3 (the interpreter running this, not a
    slow version-manager shim)."""
    binary = os.path.abspath(args.gdlog)
    gdlog = os.path.join(scratch, "gdlog")
    if args.wrap:
        with open(gdlog, "w", encoding="utf-8") as f:
            f.write(f'#!/usr/bin/env bash\nexec {args.wrap} {shlex.quote(binary)} "$@"\n')
        os.chmod(gdlog, 0o755)
    else:
        os.symlink(binary, gdlog)
    os.symlink(sys.executable, os.path.join(scratch, "python3"))
    return scratch


def setup_dir(case_path, sections):
    """A fresh directory holding links to the case directory's files and the case's own files."""
    work = tempfile.mkdtemp(prefix="gdlog-case-")
    src = os.path.dirname(os.path.abspath(case_path))
    for entry in os.listdir(src):
        if not entry.endswith(".case"):
            os.symlink(os.path.join(src, entry), os.path.join(work, entry))
    for _, arg, text in (s for s in sections if s[0] == "file"):
        target = os.path.join(work, arg)
        if os.path.lexists(target):
            os.unlink(target)
        with open(target, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(text)
    return work


def run_case(path, args, bindir):
    """Returns ('ok'|'fail'|'skip', detail, actual) for one case file."""
    _, sections = parse_case(path)
    why = missing_requirement(sections, args)
    if why:
        return "skip", why, None
    cmd = one(sections, "command")
    if cmd is None or not cmd[2].strip():
        return "fail", "no '--- command' section", None
    work = setup_dir(path, sections)
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["SHARED"] = os.path.abspath(args.shared) if args.shared else ""
    env["CASES"] = os.path.dirname(os.path.abspath(__file__))
    env["LC_ALL"] = "C"
    stdin = one(sections, "stdin")
    timeout = float(one(sections, "timeout")[1]) if one(sections, "timeout") else 120.0
    # its own process group, so that a timeout also ends what the command started
    p = subprocess.Popen(["bash", "-c", cmd[2]], cwd=work, env=env, start_new_session=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate((stdin[2] if stdin else "").encode("utf-8", "surrogateescape"),
                                 timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        shutil.rmtree(work, ignore_errors=True)
        return "fail", f"timed out after {timeout:g} s", None
    shutil.rmtree(work, ignore_errors=True)
    actual = {"stdout": out.decode("utf-8", "surrogateescape"),
              "stderr": err.decode("utf-8", "surrogateescape"),
              "status": str(p.returncode)}
    status = one(sections, "status")
    expected = {"stdout": one(sections, "stdout")[2] if one(sections, "stdout") else "",
                "stderr": one(sections, "stderr")[2] if one(sections, "stderr") else "",
                "status": status[1] if status else "0"}
    diffs = []
    for key in ("status", "stdout", "stderr"):
        if expected[key] != actual[key]:
            if key == "status":
                diffs.append(f"status: expected {expected[key]}, got {actual[key]}")
            else:
                import difflib  # only when a case fails: it costs start-up time
                diffs.append("".join(difflib.unified_diff(
                    expected[key].splitlines(True), actual[key].splitlines(True),
                    f"expected {key}", f"actual {key}", n=2)))
    return ("fail" if diffs else "ok"), "\n".join(diffs), actual


def update_case(path, actual):
    comments, sections = parse_case(path)
    keep = [s for s in sections if s[0] not in ("stdout", "stderr", "status")]
    out = "".join(c + "\n" for c in comments)
    for name, arg, text in keep:
        out += f"--- {name}{' ' + arg if arg else ''}\n{text}"
    if actual["stdout"]:
        out += "--- stdout\n" + actual["stdout"] + ("" if actual["stdout"].endswith("\n") else "\n")
    if actual["stderr"]:
        out += "--- stderr\n" + actual["stderr"] + ("" if actual["stderr"].endswith("\n") else "\n")
    if actual["status"] != "0":
        out += f"--- status {actual['status']}\n"
    if (actual["stdout"] and not actual["stdout"].endswith("\n")) or \
       (actual["stderr"] and not actual["stderr"].endswith("\n")):
        print(f"note: {path}: output without a final newline was given one", file=sys.stderr)
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(out)


def main():
    ap = argparse.ArgumentParser(description="Runs gdlog test cases written as data.")
    ap.add_argument("--gdlog", required=True, help="the gdlog binary under test")
    ap.add_argument("--shared", default=None, help="the shared games directory (for '--- requires shared')")
    ap.add_argument("--wrap", default=os.environ.get("GDLOG_WRAP", ""),
                    help="a command put before every run of gdlog (default: $GDLOG_WRAP)")
    ap.add_argument("--update", action="store_true", help="rewrite the expected output of failing cases")
    ap.add_argument("cases", nargs="+")
    args = ap.parse_args()
    passed = failed = skipped = 0
    scratch = tempfile.mkdtemp(prefix="gdlog-wrap-")
    bindir = bin_dir(args, scratch)
    for path in args.cases:
        name = os.path.relpath(path)
        try:
            result, detail, actual = run_case(path, args, bindir)
        except (ValueError, OSError) as e:
            result, detail, actual = "fail", str(e), None
        if result == "skip":
            skipped += 1
            print(f"skip {name}: {detail}")
        elif result == "ok":
            passed += 1
            print(f"ok {name}")
        else:
            print(f"FAIL {name}\n{detail}")
            if args.update and actual is not None:
                update_case(path, actual)
                print(f"updated {name}")
            failed += 1
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    if failed:
        return 1
    return 77 if skipped and not passed else 0


if __name__ == "__main__":
    sys.exit(main())
