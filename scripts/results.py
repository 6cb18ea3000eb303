#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge guest console logs and tally the verdict.

  results.py boot --log LOG --boot NAME --list RUNLIST [--kunit]
                  [--known FILE]... [--maintainers FILE] [--qemu-status N]
                  [--limit S] --out JSON
      Parse one boot's console: the boot itself, the KUnit KTAP the kernel
      printed, and the kselftest TAP the guest's /init printed.  Writes one
      result per test to JSON and prints the ones that did not pass.

  results.py summary JSON...
      Per-suite tallies, then the verdict line "N passed, N failed, N skipped".
      Exits 1 if anything failed.

A result is pass, fail or skip.  A test listed for the boot in a --known
file (plan/known-failures: what TCG cannot judge; plan/known-failures-BASE:
what fails on that unpatched base too) is run all the same; if it fails
its result is skip, with the reason shown, and if it passes it is a pass.

A boot whose command line has th.cs=NAME exists to run the series' tests
on clocksource NAME.  /init prints the clocksource before and after each
test ("th-cs: before NAME", "th-cs: after NAME"); a pass of one of the
series' tests (the selftests of the TIME INTERPOLATOR entry of
MAINTAINERS) that began or ended on another clocksource is a skip: it did
not test what the boot is for.
"""

import argparse
import fnmatch
import json
import re
import sys

TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\] ')
# Kernel reports that fail a boot wherever they appear.
KERNEL_BAD = re.compile(
    r'^\[\s*\d+\.\d+\] (?:.*?)('
    r'WARNING: |BUG: |Kernel panic|Oops|general protection fault|'
    r'kernel BUG at|UBSAN: |KASAN: |INFO: possible .*locking|'
    r'INFO: task .* blocked|rcu: INFO: |watchdog: BUG)')
KTAP_RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: -)? ([^#]*?)\s*(?:#\s*(.*))?$')
KTAP_SUBTEST = re.compile(r'^(\s*)# Subtest: (\S+)')
KTAP_PLAN = re.compile(r'^(\s*)1\.\.(\d+)')
TAP_RESULT = re.compile(r'^(not ok|ok) (\d+) selftests: (\S+): (\S+)(?:\s*#\s*(.*))?$')
TH_CS = re.compile(r'^th-cs: (before|after) (\S+)')
# A test that leaves the boot's clocksource on purpose: cpu-lag's last
# step demotes the TSC.
LEAVES_CLOCKSOURCE = ('timers:cpu-lag',)
QEMU_TIMEOUT = 124
# The cross-CPU tally of xcpu-monotonic (and of the harness's tests that
# run it), as the console shows it: "# # summary: R reads, N inversions".
INVERSIONS = re.compile(r'^(?:# )*summary: (\d+) reads, (\d+) inversions')


def read_lines(path):
    with open(path, 'rb') as f:
        data = f.read().decode('utf-8', 'replace')
    return [l.rstrip('\r') for l in data.split('\n')]


def load_known(paths):
    """plan/known-failures*: TEST-ID BOOT-GLOB REASON..., from each file."""
    known = []
    for path in paths or []:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                parts = line.split(None, 2)
                if len(parts) < 3:
                    raise SystemExit(f'{path}: needs "test boot-glob reason": {line}')
                known.append(tuple(parts))
    return known


def series_programs(path):
    """The series' selftests, "COLLECTION:PROGRAM", from the F: lines of
    the TIME INTERPOLATOR entry of MAINTAINERS @path."""
    programs, inside = set(), False
    if not path:
        return programs
    try:
        with open(path, errors='replace') as f:
            for line in f:
                line = line.rstrip('\n')
                if line == 'TIME INTERPOLATOR':
                    inside = True
                elif inside and not line.strip():
                    break
                elif inside:
                    m = re.match(r'F:\s+tools/testing/selftests/([^/]+)/([^/.]+)\.c$', line)
                    if m:
                        programs.add(f'{m.group(1)}:{m.group(2)}')
    except FileNotFoundError:
        pass
    return programs


def boot_clocksource(lines):
    """The clocksource the boot's th.cs= asks for, or None."""
    return next((a.split('=', 1)[1] for a in boot_args(lines) if a.startswith('th.cs=')), None)


def wrong_clocksource(tid, out, want):
    """Why program @tid did not run on clocksource @want, from the
    "th-cs:" lines of its output @out, or None."""
    seen = dict(m.groups() for m in (TH_CS.match(l) for l in out) if m)
    before, after = seen.get('before'), seen.get('after')
    if before != want:
        return f'began on {before or "an unknown clocksource"}, not {want}'
    if after not in (want, None) and tid not in LEAVES_CLOCKSOURCE:
        return f'ended on {after}, not {want}'
    return None


def boot_args(lines):
    """The kernel command line the guest's /init printed, as words."""
    for l in lines:
        if l.startswith('# cmdline: '):
            return l[len('# cmdline: '):].split()
    return []


def skew_of(args):
    """The largest TSC offset in ns of th.skew=CPU:NS[:PPM],..., and the
    largest rate difference in ppm, or None without th.skew."""
    spec = next((a.split('=', 1)[1] for a in args if a.startswith('th.skew=')), None)
    if spec is None:
        return None
    ns = ppm = 0
    for item in spec.split(','):
        f = item.split(':')
        ns = max(ns, abs(int(f[1])))
        ppm = max(ppm, abs(int(f[2])) if len(f) > 2 else 0)
    return ns, ppm


def inversion_tally(out):
    """(reads, inversions) of a test's output lines, or None."""
    t = [m.groups() for m in (INVERSIONS.match(l) for l in out) if m]
    if not t:
        return None
    return sum(int(r) for r, _ in t), sum(int(n) for _, n in t)


def control_rows(tid, out):
    """A negative control's one row for program @tid: on counters that
    disagree and with nothing to keep them in step, the test must see
    inversions; one that sees none cannot see what it is for."""
    tally = inversion_tally(out)
    if tally is None:
        return [(tid, 'fail', 'control: the test printed no inversion tally',
                 telling_lines(out))]
    reads, inv = tally
    if inv:
        return [(tid, 'pass', f'control: {inv} inversions in {reads} reads, as it must', [])]
    return [(tid, 'fail', f'control: 0 inversions in {reads} reads: the test cannot see '
             'the skew it is for', telling_lines(out))]


def program_of(test):
    """The program of a sub-test's id ("timers:nanosleep/3"), or the id."""
    return test.split('/', 1)[0]


def known_reason(known, test, boot):
    """A known failure of a program covers its sub-tests ("PROGRAM/N")."""
    for tid, bglob, reason in known:
        if (fnmatch.fnmatchcase(test, tid) or fnmatch.fnmatchcase(program_of(test), tid)) and \
           fnmatch.fnmatchcase(boot, bglob):
            return reason
    return None


def parse_kunit(lines):
    """Results of KUnit test cases (depth 1 of the KTAP), with the checks
    that every announced suite and case reported."""
    results = []
    ktap = [TIMESTAMP.sub('', l) for l in lines if TIMESTAMP.match(l)]
    start = next((i for i, l in enumerate(ktap)
                  if l.strip().startswith(('KTAP version', 'TAP version'))
                  and not l.startswith(' ')), None)
    if start is None:
        return [('kunit:ktap', 'fail', 'no KUnit KTAP on the console', [])]
    suites_planned = None
    suite, planned, seen, suites_seen = None, None, 0, 0

    def close_suite():
        if suite and planned is not None and seen < planned:
            results.append((f'kunit:{suite}', 'fail',
                            f'{planned - seen} of {planned} cases never reported', []))

    diag = []
    for l in ktap[start + 1:]:
        indent = len(l) - len(l.lstrip(' '))
        if l.strip().startswith('# ') and not KTAP_SUBTEST.match(l):
            diag.append(l.strip()[2:])
        m = KTAP_PLAN.match(l)
        if m:
            if indent == 0 and suites_planned is None:
                suites_planned = int(m.group(2))
            elif indent == 4 and suite:
                planned = int(m.group(2))
            continue
        m = KTAP_SUBTEST.match(l)
        if m and len(m.group(1)) == 4:
            close_suite()
            suite, planned, seen = m.group(2), None, 0
            continue
        m = KTAP_RESULT.match(l)
        if not m:
            continue
        depth = len(m.group(1)) // 4
        ok, name, directive = m.group(2) == 'ok', m.group(4).strip(), m.group(5) or ''
        if depth == 1 and suite:
            seen += 1
            if directive.upper().startswith('SKIP'):
                status = 'skip'
            else:
                status = 'pass' if ok else 'fail'
            results.append((f'kunit:{suite}.{name}', status, directive,
                            telling_lines(diag) if status == 'fail' else []))
            diag = []
        elif depth == 0:
            suites_seen += 1
            close_suite()
            if not ok and not any(r[0].startswith(f'kunit:{name}.') and r[1] == 'fail'
                                  for r in results):
                results.append((f'kunit:{name}', 'fail', 'suite failed', []))
            suite, planned = None, None
    if suite:
        results.append((f'kunit:{suite}', 'fail', 'suite never finished (log truncated)', []))
    if suites_planned is not None and suites_seen < suites_planned:
        results.append(('kunit:ktap', 'fail',
                        f'{suites_planned - suites_seen} of {suites_planned} suites never reported', []))
    if suites_planned == 0:
        # "1..0": kunit.filter_glob (make test KUNIT=GLOB) matched no suite
        # of this kernel, a skip; without a glob the kernel has none at all.
        glob = next((a.split('=', 1)[1] for a in boot_args(lines)
                     if a.startswith('kunit.filter_glob=')), None)
        if glob is not None:
            results.append(('kunit:ktap', 'skip', f'no suite matches kunit.filter_glob={glob}', []))
        else:
            results.append(('kunit:ktap', 'fail', 'the kernel ran no KUnit suite (1..0)', []))
    return results


TAP_START = re.compile(r'^# selftests: (\S+): (\S+)')
# The lines of a test's output that say what went wrong.
TELLING = re.compile(r'not ok|fail|error|bail|abort|assert|mismatch|\bbad\b|unexpected',
                     re.IGNORECASE)
OUTPUT_LINES = 12


def telling_lines(out):
    """What to show of a failed test's output: the lines that say what went
    wrong (the last OUTPUT_LINES of them), else its last lines."""
    out = [l for l in out if l.strip()]
    # A passed sub-test's "ok ..., 0 failed" says nothing went wrong.
    told = [l for l in out if TELLING.search(l) and not re.match(r'(# )?ok ', l)]
    return (told or out)[-OUTPUT_LINES:]


# A sub-test of a kselftest program, as its own TAP prints it: the
# program's output reaches the console prefixed with "# ".
SUB_RESULT = re.compile(r'^(not ok|ok) (\d+)\b ?([^#]*?)\s*(?:#\s*(\S+)\s*(.*?))?\s*$')
SUB_PLAN = re.compile(r'^1\.\.(\d+)')
# A result line glued to a message printed without its newline, as
# posix_timers' "Diff too high: 2511262..not ok 1 ITIMER_VIRTUAL".
SUB_GLUED = re.compile(r'^\S.*?\.\.((?:not )?ok \d+ .*)$')


def sub_result(line):
    m = SUB_RESULT.match(line)
    if not m and (g := SUB_GLUED.match(line)):
        m = SUB_RESULT.match(g.group(1))
    return m


def sub_results(tid, out, telling):
    """The sub-test rows of program @tid from its output lines @out: one
    row a TAP result line, a "# SKIP" one a skip.  A program that runs
    others (clocksource-switch) prints one TAP document ("TAP version",
    "1..N") each: with more than one, rows are "TID/D.N", else "TID/N".
    Returns (rows, planned: the sum of the plans, or None).  A failed
    row's output is @telling, the program's lines that say what failed."""
    docs, cur = [], None
    for l in out:
        plan, m = SUB_PLAN.match(l), sub_result(l)
        if l.startswith('TAP version') or (cur is None and (plan or m)):
            cur = {'plan': None, 'rows': []}
            docs.append(cur)
        if plan and cur['plan'] is None and not cur['rows']:
            cur['plan'] = int(plan.group(1))
        if not m:
            continue
        ok, num, desc = m.group(1) == 'ok', int(m.group(2)), m.group(3).strip()
        directive, reason = (m.group(4) or '').upper(), (m.group(5) or '').strip()
        if directive == 'SKIP':
            status, detail = 'skip', ': '.join(x for x in (desc, reason) if x)
        else:
            status = 'pass' if ok else 'fail'
            detail = desc
        cur['rows'].append((num, status, detail))
    docs = [d for d in docs if d['rows'] or d['plan']]
    rows = []
    for i, d in enumerate(docs, 1):
        for num, status, detail in d['rows']:
            sub = f'{i}.{num}' if len(docs) > 1 else f'{num}'
            rows.append((f'{tid}/{sub}', status, detail, telling if status == 'fail' else []))
    plans = [d['plan'] for d in docs if d['plan'] is not None]
    return rows, (sum(plans) if plans else None)


def program_results(tid, status, directive, out):
    """The rows of one program: its sub-tests where it printed TAP of its
    own, else the program itself.  A program that skipped as a whole (exit
    4) is one skip row; one that failed with no failing sub-test, or that
    reported fewer sub-tests than it planned, adds a failing row of its own."""
    telling = telling_lines(out)
    if status == 'skip':
        return [(tid, 'skip', directive, [])]
    rows, planned = sub_results(tid, out, telling)
    if not rows:
        return [(tid, status, directive, telling if status == 'fail' else [])]
    if status == 'fail' and not any(r[1] == 'fail' for r in rows):
        rows.append((tid, 'fail', f'exited with a failure, no sub-test failed ({directive})',
                     telling))
    elif planned is not None and len(rows) < planned:
        rows.append((tid, 'fail', f'{planned - len(rows)} of {planned} sub-tests never reported',
                     telling))
    return rows


def parse_selftests(lines, expected, series=frozenset(), want_cs=None, control=False):
    """Results of the guest's kselftest TAP; every expected test must report.
    A program that prints TAP of its own gives a row for each of its
    sub-tests ("timers:nanosleep/3"), so that a sub-test that skipped is a
    skip; see program_results().  A result is (id, status, detail, output):
    output is the test's own lines for a failure, the place to look first.
    With @want_cs, the passes of a program of @series that did not run on
    that clocksource are skips.  In a @control boot (th.control), a program
    that prints an inversion tally is judged by control_rows()."""
    got, out, current = {}, [], None
    for l in lines:
        m = TAP_START.match(l)
        if m:
            current, out = f'{m.group(1)}:{m.group(2)}', []
            continue
        m = TAP_RESULT.match(l)
        if not m:
            if current and l.startswith('# '):
                out.append(l[2:])
            continue
        tid = f'{m.group(3)}:{m.group(4)}'
        directive = (m.group(5) or '').strip()
        if m.group(1) == 'ok':
            status = 'skip' if directive.upper().startswith('SKIP') else 'pass'
        else:
            status = 'fail'
        if control and inversion_tally(out) is not None:
            got[tid] = control_rows(tid, out)
            current, out = None, []
            continue
        rows = program_results(tid, status, directive, out)
        why = want_cs and tid in series and wrong_clocksource(tid, out, want_cs)
        if why:
            rows = [(r[0], 'skip', f'{why}: {r[2]}'.rstrip(': '), r[3]) if r[1] == 'pass' else r
                    for r in rows]
        got[tid] = rows
        current, out = None, []
    results = []
    for tid in expected:
        if tid in got:
            results += got[tid]
        elif tid == current:
            telling = telling_lines(out)
            rows, _ = sub_results(tid, out, telling)
            results += rows + [(tid, 'fail', 'never reported (the boot ended first)', telling)]
        else:
            results.append((tid, 'fail', 'never reported (the boot ended first)', []))
    for tid in got:
        if tid not in expected:
            results.append((tid, 'fail', 'reported but not in the plan', []))
    return results


def boot_result(lines, name, qemu_status, limit):
    problems, output = [], []
    for i, l in enumerate(lines, 1):
        m = KERNEL_BAD.match(l)
        if m:
            problems.append(f'kernel report at line {i}: {TIMESTAMP.sub("", l).strip()[:100]}')
            output = [TIMESTAMP.sub('', x) for x in lines[i - 1:i - 1 + OUTPUT_LINES]]
            break
    done = any(l.startswith('TH-DONE') for l in lines)
    if qemu_status == QEMU_TIMEOUT:
        problems.append(f'hung: no power-off within {limit} s')
    elif not done:
        problems.append('ended before TH-DONE (crash, panic or truncated log)')
    elif qemu_status not in (0, None):
        problems.append(f'QEMU exited with status {qemu_status}')
    if problems:
        if not output:
            output = [TIMESTAMP.sub('', x) for x in lines if x.strip()][-OUTPUT_LINES:]
        return (f'boot:{name}', 'fail', '; '.join(problems), output)
    return (f'boot:{name}', 'pass', '', [])


def cmd_boot(a):
    lines = read_lines(a.log)
    expected = []
    with open(a.list) as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) >= 2 and parts[0]:
                expected.append(f'{parts[0]}:{parts[1]}')
    results = [boot_result(lines, a.boot, a.qemu_status, a.limit)]
    if a.kunit:
        results += parse_kunit(lines)
    args = boot_args(lines)
    results += parse_selftests(lines, expected, series_programs(a.maintainers),
                               boot_clocksource(lines), 'th.control' in args)

    known = load_known(a.known)
    out = []
    for tid, status, detail, output in results:
        reason = known_reason(known, tid, a.boot)
        if reason and status == 'fail':
            status, detail = 'skip', f'known failure: {reason} ({detail})'
        r = {'boot': a.boot, 'test': tid, 'status': status,
             'detail': detail, 'log': a.log}
        if status == 'fail' and output:
            r['output'] = output
        out.append(r)
    with open(a.out, 'w') as f:
        json.dump(out, f, indent=1)
    counts = {s: sum(r['status'] == s for r in out) for s in ('pass', 'fail', 'skip')}
    cs = [l.split(': ', 1)[1].strip() for l in lines
          if l.startswith(('# clocksource: ', '# clocksource at the end: '))]
    print(f'  boot {a.boot}: {counts["pass"]} passed, {counts["fail"]} failed, '
          f'{counts["skip"]} skipped' + (f' (clocksource {" -> ".join(cs)})' if cs else ''))
    skew = skew_of(args)
    if skew is not None:
        reads, inv = inversion_tally([l[2:] for l in lines if l.startswith('# ')]) or (0, 0)
        print(f'  boot {a.boot}: skew_ns={skew[0]} skew_ppm={skew[1]} inversions={inv} '
              f'reads={reads}' + (' (a control: it must see inversions)'
                                  if 'th.control' in args else ''))
    skipped = {}
    for r in out:
        if r['status'] == 'fail':
            print(f'    FAIL {r["test"]}: {r["detail"]}  [log: {r["log"]}]')
            for line in r.get('output', [])[-4:]:
                print(f'      | {line[:160]}')
        elif r['status'] == 'skip':
            _, _, num = r['test'].partition('/')
            skipped.setdefault(program_of(r['test']), []).append(
                f'{num} {r["detail"]}'.strip() if num else r['detail'])
    # The skips of a program on one line: "3 why; 4 why" for sub-tests.
    for program, whys in skipped.items():
        print(f'    skip {program}: {"; ".join(w for w in whys if w)[:300]}')
    return 0


def suite_of(test):
    return test.split(':', 1)[0]


def cmd_summary(a):
    rows = []
    for path in a.files:
        with open(path) as f:
            rows += json.load(f)
    suites = {}
    for r in rows:
        t = suites.setdefault(suite_of(r['test']), {'pass': 0, 'fail': 0, 'skip': 0})
        t[r['status']] += 1
    print(f'{"suite":<20} {"passed":>7} {"failed":>7} {"skipped":>8}')
    for s in sorted(suites):
        t = suites[s]
        print(f'{s:<20} {t["pass"]:>7} {t["fail"]:>7} {t["skip"]:>8}')
    fails = [r for r in rows if r['status'] == 'fail']
    if fails:
        print('\nfailed (with what each said; the whole console is the log named):')
        for r in fails:
            print(f'  {r["boot"]}: {r["test"]}: {r["detail"]}\n    log: {r["log"]}')
            for line in r.get('output', []):
                print(f'    | {line[:160]}')
    skips = {}
    for r in rows:
        if r['status'] == 'skip':
            t = skips.setdefault(program_of(r['test']), [0, set()])
            t[0] += 1
            t[1].add(r['boot'])
    if skips:
        print('\nskipped, by test (the lines of each boot above say why):')
        for test in sorted(skips):
            n, boots = skips[test]
            print(f'  {test}: {n} in {len(boots)} boot{"s" if len(boots) > 1 else ""}')
    total = {s: sum(t[s] for t in suites.values()) for s in ('pass', 'fail', 'skip')}
    if not rows:
        print('no results: nothing ran')
        total['fail'] = 1
    print(f'{total["pass"]} passed, {total["fail"]} failed, {total["skip"]} skipped')
    return 1 if total['fail'] else 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='cmd', required=True)
    b = sub.add_parser('boot')
    b.add_argument('--log', required=True)
    b.add_argument('--boot', required=True)
    b.add_argument('--list', required=True)
    b.add_argument('--kunit', action='store_true')
    b.add_argument('--known', action='append',
                   help='a plan/known-failures file; may be given more than once')
    b.add_argument('--maintainers')
    b.add_argument('--qemu-status', type=int)
    b.add_argument('--limit', type=int, default=0)
    b.add_argument('--out', required=True)
    s = sub.add_parser('summary')
    s.add_argument('files', nargs='*')
    a = p.parse_args()
    return cmd_boot(a) if a.cmd == 'boot' else cmd_summary(a)


if __name__ == '__main__':
    sys.exit(main())
