#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge guest console logs and tally the verdict.

  results.py boot --log LOG --boot NAME --list RUNLIST [--kunit]
                  [--known FILE]... [--maintainers FILE] [--qemu-status N]
                  [--limit S] --out JSON
      Parse one boot's console: the boot itself, the KUnit KTAP the kernel
      printed, and the kselftest TAP the guest's /init printed.  Writes one
      result per test to JSON and prints the ones that did not pass.

  results.py summary [--ktap FILE] [--base B] [--series S]
                     [--plan-boots "FILE..."] JSON...
      Per-suite tallies; each failure with the command that reruns just it
      ("rerun: make test BOOTS=NAME T=COLLECTION:TEST", KUNIT=SUITE for a
      KUnit case, BOOTS=NAME alone for the boot itself; BASE= and SERIES=
      of the run in front); with --ktap, the whole verdict as one KTAP
      file.  The last line is the verdict:
        "N passed, N failed, N skipped, N xfail, N wrong-clocksource,
         N error; exit status S: WHY"
      and the exit status is S: 0 no test failed (xfail, skips and
      wrong-clocksource are not failures), 1 a test failed, 2 the harness
      itself failed (an error: a guest that never booted, a build step
      that failed, no results at all).

A result is pass, fail or skip ("status" in the JSON), and a result that
is not quite that has a "category" as well, in kselftest's words:

  xfail              a test listed for the boot in a --known file
                     (plan/known-failures: what TCG cannot judge;
                     plan/known-failures-BASE: what fails on that
                     unpatched base too) that failed: status skip, with
                     the reason shown.  A known failure that passes is a
                     pass.
  wrong-clocksource  a boot whose command line has th.cs=NAME exists to run
                     the series' tests on clocksource NAME.  /init prints
                     the clocksource before and after each test ("th-cs:
                     before NAME", "th-cs: after NAME"); a pass of one of
                     the series' tests (the selftests of the TIME
                     INTERPOLATOR entry of MAINTAINERS) that began or ended
                     on another clocksource did not test what the boot is
                     for: status skip.
  error              the guest never booted: no sign of the guest's /init
                     ("TH-SELFTESTS") on the console, and either no kernel
                     output at all or a kernel that could not start /init;
                     every failed result of that boot (its tests never
                     ran) is an error: status fail.  A kernel that
                     printed, then panicked or hung before /init, is a
                     failure of the kernel under test: not an error.
                     So are run.sh's rows of a background build that
                     failed and of a step that wrote no results.
"""

import argparse
import bisect
import fnmatch
import json
import os
import re
import shlex
import sys
import traceback

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
# The category of a pass that ran on another clocksource than th.cs=
# asked for (a skip in the JSON), and the start of its detail.
WRONG_CS = 'wrong-clocksource'
WRONG_CS_WHY = 'wrong clocksource: '
# The first line the guest's /init prints (scripts/guest/init, init32.c):
# the sign that the guest booted.
INIT_MARKER = 'TH-SELFTESTS'
# What the kernel says when it cannot start the guest's /init: the
# harness's initramfs, not the kernel under test, is at fault.
NO_INIT = re.compile(r'No working init found|Failed to execute /init|'
                     r'Unable to mount root fs|Initramfs unpacking failed')
# A test that leaves the boot's clocksource on purpose: cpu-lag's last
# step demotes the TSC.
LEAVES_CLOCKSOURCE = ('timers:cpu-lag',)
QEMU_TIMEOUT = 124
# The cross-CPU tally of xcpu-monotonic (and of the harness's tests that
# run it), as the console shows it: "# # summary: R reads, N inversions".
INVERSIONS = re.compile(r'^(?:# )*summary: (\d+) reads, (\d+) inversions')


def read_lines(path):
    """The lines of console log @path; none when boot.sh wrote no log."""
    try:
        with open(path, 'rb') as f:
            data = f.read().decode('utf-8', 'replace')
    except FileNotFoundError:
        return []
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
                    raise ValueError(f'{path}: needs "test boot-glob reason": {line}')
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


SKIP_WHY = re.compile(r'^(?:not )?ok \d+\b[^#]*#\s*SKIP\b\s*(.*)$', re.IGNORECASE)


def skip_why(out, directive):
    """Why a program skipped as a whole: the reasons its own TAP gave for
    its results ("ok 1 # SKIP why"), each once, else its directive."""
    whys = []
    for l in out:
        m = SKIP_WHY.match(l.strip())
        if m and m.group(1) and m.group(1) not in whys:
            whys.append(m.group(1))
    return '; '.join(whys) or directive


def program_results(tid, status, directive, out):
    """The rows of one program: its sub-tests where it printed TAP of its
    own, else the program itself.  A program that skipped as a whole (exit
    4) is one skip row; one that failed with no failing sub-test, or that
    reported fewer sub-tests than it planned, adds a failing row of its own."""
    telling = telling_lines(out)
    if status == 'skip':
        return [(tid, 'skip', skip_why(out, directive), [])]
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
    that clocksource are wrong-clocksource results.  In a @control boot (th.control), a program
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
            rows = [(r[0], WRONG_CS, f'{WRONG_CS_WHY}{why}: {r[2]}'.rstrip(': '), r[3])
                    if r[1] == 'pass' else r for r in rows]
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


# What a kernel report says of where each CPU or task was: the report's
# own lines, the CPU and task headers, the instruction pointers and the
# call traces.  Register dumps and code bytes are left out.
REPORT_KEEP = re.compile(
    r'NMI backtrace for cpu|CPU: \d+ (?:UID: \d+ )?PID: |task:\S+ +state:|Stopper: |'
    r'Workqueue: |[ER]IP: |Call Trace:|^\s*(?:\? )?(?:0x[0-9a-f]+|[\w.]+\+0x)|'
    r'rcu: |INFO: |BUG: |WARNING: |Kernel panic|Oops|kernel BUG at|general protection')
# A report is read up to this many console lines on, and shown in at most
# REPORT_LINES of them.
REPORT_WINDOW = 200
REPORT_LINES = 40
KERNEL_ADDR = re.compile(r'\b0x([0-9a-f]{8}|[0-9a-f]{16})\b')


def system_map(path):
    """The text symbols of a kernel's System.map: their addresses and names,
    sorted by address, and the end of the text; ([], [], 0) without one."""
    syms, end = [], 0
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) < 3:
                    continue
                if parts[2] == '_etext':
                    end = int(parts[0], 16)
                elif parts[1] in ('t', 'T', 'w', 'W'):
                    syms.append((int(parts[0], 16), parts[2]))
    except (OSError, ValueError):
        return [], [], 0
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms], end


def system_map_of(lines):
    """The System.map beside the kernel that boot.sh's first console line
    names (OBJ/arch/x86/boot/bzImage: OBJ/System.map), or None."""
    if not lines or not lines[0].startswith('# '):
        return None
    words = lines[0].split()
    if '-kernel' not in words[:-1]:
        return None
    parts = words[words.index('-kernel') + 1].split('/')
    return '/'.join(parts[:-4] + ['System.map']) if len(parts) > 4 else None


def name_addresses(line, symbols):
    """@line with each kernel text address in it followed by <symbol+off>:
    the guests' kernels have no kallsyms, their traces are bare numbers."""
    addrs, names, end = symbols

    def named(m):
        addr = int(m.group(1), 16)
        i = bisect.bisect_right(addrs, addr) - 1
        if i < 0 or (end and addr >= end):
            return m.group(0)
        return f'{m.group(0)} <{names[i]}+{addr - addrs[i]:#x}>'
    return KERNEL_ADDR.sub(named, line) if addrs else line


def report_excerpt(lines, start, symbols):
    """The kernel report that begins at line @start (1-based), as the
    summary shows it: its first line, then the lines of REPORT_KEEP among
    the kernel's next ones up to the next report, addresses named."""
    out = []
    for l in lines[start - 1:start - 1 + REPORT_WINDOW]:
        if not TIMESTAMP.match(l):
            continue
        if out and KERNEL_BAD.match(l):
            break
        text = TIMESTAMP.sub('', l).rstrip()
        if out and not REPORT_KEEP.search(text):
            continue
        out.append(name_addresses(text, symbols))
        if len(out) == REPORT_LINES:
            break
    return out


def never_booted(lines):
    """Why the guest never booted, or None: no "TH-SELFTESTS" of its /init
    and either no kernel line on the console (QEMU did not start, or
    started no kernel) or a kernel that says it could not start /init."""
    if any(l.startswith(INIT_MARKER) for l in lines):
        return None
    no_init = next((l for l in lines if TIMESTAMP.match(l) and NO_INIT.search(l)), None)
    if no_init:
        return f"never booted: the kernel could not start the guest's /init " \
               f"({TIMESTAMP.sub('', no_init).strip()[:100]})"
    if not any(TIMESTAMP.match(l) for l in lines):
        return 'never booted: no kernel output on the console'
    return None


def boot_result(lines, name, qemu_status, limit, map_path=None):
    """The boot's own row: fail on a kernel report, a hang, a boot that
    ended before TH-DONE; error when the guest never booted.  A report's
    addresses are named from the System.map at @map_path, read only then
    (default: the one beside the booted kernel, system_map_of())."""
    problems, output = [], []
    for i, l in enumerate(lines, 1):
        m = KERNEL_BAD.match(l)
        if m:
            problems.append(f'kernel report at line {i}: {TIMESTAMP.sub("", l).strip()[:100]}')
            symbols = system_map(map_path or system_map_of(lines) or '')
            output = report_excerpt(lines, i, symbols)
            break
    last = [TIMESTAMP.sub('', x) for x in lines if x.strip()][-OUTPUT_LINES:]
    why = never_booted(lines)
    if why:
        return (f'boot:{name}', 'error', f'{why} (QEMU status {qemu_status})', last)
    done = any(l.startswith('TH-DONE') for l in lines)
    if qemu_status == QEMU_TIMEOUT:
        problems.append(f'hung: no power-off within {limit} s')
    elif not done:
        problems.append('ended before TH-DONE (crash, panic or truncated log)')
    elif qemu_status not in (0, None):
        problems.append(f'QEMU exited with status {qemu_status}')
    if problems:
        return (f'boot:{name}', 'fail', '; '.join(problems), output or last)
    return (f'boot:{name}', 'pass', '', [])


# The verdicts of a result, in the order the tallies show them.
VERDICTS = ('pass', 'fail', 'skip', 'xfail', WRONG_CS, 'error')
WORDS = {'pass': 'passed', 'fail': 'failed', 'skip': 'skipped', 'xfail': 'xfail',
         WRONG_CS: WRONG_CS, 'error': 'error'}
# A verdict's JSON status: other tools read pass, fail and skip alone.
STATUS = {'xfail': 'skip', WRONG_CS: 'skip', 'error': 'fail'}
KNOWN_WHY = 'known failure: '


def verdict(r):
    """The verdict of JSON row @r: its category, else its status.  Rows
    written before categories were: a known failure's detail starts with
    KNOWN_WHY, a wrong clocksource's with "began on" or "ended on"."""
    if r.get('category'):
        return r['category']
    if r['status'] == 'skip' and r.get('detail', '').startswith(KNOWN_WHY):
        return 'xfail'
    if r['status'] == 'skip' and re.match(r'(began|ended) on .+?, not \S+', r.get('detail', '')):
        return WRONG_CS
    return r['status']


def tally_line(counts, every=True):
    """"N passed, N failed, N skipped" and the other verdicts: all of them,
    or (not @every) those that are not 0."""
    return ', '.join(f'{counts[v]} {WORDS[v]}' for v in VERDICTS
                     if every or v in ('pass', 'fail', 'skip') or counts[v])


def cmd_boot(a):
    lines = read_lines(a.log)
    expected = []
    with open(a.list) as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) >= 2 and parts[0]:
                expected.append(f'{parts[0]}:{parts[1]}')
    results = [boot_result(lines, a.boot, a.qemu_status, a.limit, a.system_map)]
    if a.kunit:
        results += parse_kunit(lines)
    args = boot_args(lines)
    results += parse_selftests(lines, expected, series_programs(a.maintainers),
                               boot_clocksource(lines), 'th.control' in args)
    # A guest that never booted ran none of its tests: the harness failed.
    if results[0][1] == 'error':
        results = [(t, 'error' if st == 'fail' else st, d, o) for t, st, d, o in results]

    known = load_known(a.known)
    out = []
    for tid, v, detail, output in results:
        reason = known_reason(known, tid, a.boot)
        if reason and v == 'fail':
            v, detail = 'xfail', f'{KNOWN_WHY}{reason} ({detail})'
        r = {'boot': a.boot, 'test': tid, 'status': STATUS.get(v, v),
             'detail': detail, 'log': a.log}
        if v in STATUS:
            r['category'] = v
        if r['status'] == 'fail' and output:
            r['output'] = output
        out.append(r)
    with open(a.out, 'w') as f:
        json.dump(out, f, indent=1)
    counts = {v: sum(verdict(r) == v for r in out) for v in VERDICTS}
    cs = [l.split(': ', 1)[1].strip() for l in lines
          if l.startswith(('# clocksource: ', '# clocksource at the end: '))]
    print(f'  boot {a.boot}: {tally_line(counts, every=False)}'
          + (f' (clocksource {" -> ".join(cs)})' if cs else ''))
    skew = skew_of(args)
    if skew is not None:
        reads, inv = inversion_tally([l[2:] for l in lines if l.startswith('# ')]) or (0, 0)
        print(f'  boot {a.boot}: skew_ns={skew[0]} skew_ppm={skew[1]} inversions={inv} '
              f'reads={reads}' + (' (a control: it must see inversions)'
                                  if 'th.control' in args else ''))
    skipped = {}
    for r in out:
        if r['status'] == 'fail':
            tag = 'ERROR' if verdict(r) == 'error' else 'FAIL'
            print(f'    {tag} {r["test"]}: {r["detail"]}  [log: {r["log"]}]')
            for line in r.get('output', [])[-4:]:
                print(f'      | {line[:160]}')
        elif r['status'] == 'skip':
            _, _, num = r['test'].partition('/')
            skipped.setdefault((verdict(r), program_of(r['test'])), []).append(
                f'{num} {r["detail"]}'.strip() if num else r['detail'])
    # The skips of a program on one line: "3 why; 4 why" for sub-tests.
    for (v, program), whys in skipped.items():
        print(f'    {WORDS[v] if v != "skip" else "skip"} {program}: '
              f'{"; ".join(w for w in whys if w)[:300]}')
    return 0


def suite_of(test):
    return test.split(':', 1)[0]


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The make targets of the background steps' results, by their suite.
HOST_TARGETS = {'ia64': 'make ia64', 'harness': 'make harness-test',
                'vdso-host': 'make vdso-check', 'guard-host': 'make guard-check'}
# The make targets that read a plan file of boots alone (PLAN_BOOTS).
PLAN_TARGETS = {'plan/boots': 'make test', 'plan/boots-long': 'make test-long',
                'plan/boots-7.2': 'make test'}


def plan_names(path):
    """The names of the boots of plan file @path."""
    try:
        with open(path) as f:
            return {l.split()[0] for l in f if l.strip() and not l.startswith('#')}
    except OSError:
        return set()


class Rerun:
    """The command that reruns one failed result, as the run was made:
    BASE=, SERIES= and the plan file of its boot (make test-long for a
    boot of plan/boots-long)."""

    def __init__(self, base, series, plan_boots):
        self.prefix = ''
        if base and base != '6.1':
            self.prefix += f'BASE={base} '
        if series and series not in ('all', 'patched'):
            self.prefix += f'SERIES={series} '
        self.plans = plan_boots.split()

    def boot_make(self, boot):
        for f in self.plans:
            path = f if os.path.isabs(f) else os.path.join(TOP, f)
            if boot in plan_names(path):
                rel = os.path.relpath(path, TOP)
                return PLAN_TARGETS.get(rel, f'PLAN_BOOTS={shlex.quote(f)} make test')
        return 'make test'

    def __call__(self, r):
        suite, _, rest = r['test'].partition(':')
        if suite in HOST_TARGETS:
            return self.prefix + HOST_TARGETS[suite]
        if suite == 'build':	# run.sh's background builds
            step = rest.removesuffix('-kernel')
            if step == 'qemu-skew':
                return self.prefix + 'scripts/qemu-skew.sh'
            cmd = f'{self.prefix}scripts/build-kernel.sh {step}'
            return f'{self.prefix}scripts/tree.sh base-tree && {cmd}' if step == 'base' else cmd
        boot = rest if suite == 'boot' else r['boot']
        cmd = f'{self.prefix}{self.boot_make(boot)} BOOTS={boot}'
        if suite == 'boot' or r['test'] == 'kunit:ktap':
            return cmd
        if suite == 'kunit':
            return f'{cmd} KUNIT={rest.split(".", 1)[0]}'
        return f'{cmd} T={program_of(r["test"])}'


def load_groups(paths):
    """(name, rows) of each results file: "boot:NAME" for boot-NAME.json,
    else the file's name.  A file that cannot be read or holds no result
    is an error of its own: the step that writes it stopped first."""
    groups = []
    for path in paths:
        stem = os.path.basename(path).removesuffix('.json')
        name = f'boot:{stem[5:]}' if stem.startswith('boot-') else stem
        try:
            with open(path) as f:
                rows = json.load(f)
            why = 'no results in it'
        except (OSError, ValueError) as e:
            rows, why = [], f'unreadable: {e}'
        if not rows:
            test = name if name.startswith('boot:') else f'{name}:run'
            rows = [{'boot': stem.removeprefix('boot-'), 'test': test, 'status': 'fail',
                     'category': 'error', 'detail': f'{path}: {why}', 'log': path}]
        groups.append((name, rows))
    return groups


def one_line(text):
    """@text as KTAP allows it in a result line: one line, no "#"."""
    return ' '.join(str(text).replace('#', '').split())


def ktap_row(n, r, rerun):
    """The KTAP lines of result @r, number @n of its boot."""
    v, t, d = verdict(r), one_line(r['test']), one_line(r.get('detail', ''))
    if v == 'pass':
        return [f'ok {n} {t}']
    if v == 'skip':
        return [f'ok {n} {t} # SKIP {d}'.rstrip()]
    if v == 'xfail':
        return [f'ok {n} {t} # XFAIL {d.removeprefix(KNOWN_WHY)}'.rstrip()]
    if v == WRONG_CS:
        return [f'ok {n} {t} # SKIP {d if d.startswith(WRONG_CS_WHY) else WRONG_CS_WHY + d}']
    # A failure's diagnostics come before its result line, as KTAP has it.
    diag = [f'# {t}: {d}'] if v == 'fail' and d else []
    diag += [f'# | {one_line(l)}'.rstrip() for l in r.get('output', [])]
    diag += [f'# rerun: {rerun(r)}']
    return diag + [f'not ok {n} {t} # ERROR {d}'.rstrip() if v == 'error' else f'not ok {n} {t}']


def ktap(groups, rerun, counts, header):
    """The verdict as KTAP version 1: one test for each results file (a
    boot, a host check), the file's results its subtests."""
    out = ['KTAP version 1', f'1..{len(groups)}', f'# {header}']
    for i, (name, rows) in enumerate(groups, 1):
        out += ['  KTAP version 1', f'  1..{len(rows)}']
        for j, r in enumerate(rows, 1):
            out += ['  ' + l for l in ktap_row(j, r, rerun)]
        vs = [verdict(r) for r in rows]
        errors = [r for r in rows if verdict(r) == 'error']
        if errors:
            out.append(f'not ok {i} {name} # ERROR {one_line(errors[0]["detail"])}'.rstrip())
        elif 'fail' in vs:
            out.append(f'not ok {i} {name}')
        elif all(v in ('skip', WRONG_CS) for v in vs):
            why = one_line(rows[0].get('detail', '')) if len(rows) == 1 else 'every result skipped'
            out.append(f'ok {i} {name} # SKIP {why}'.rstrip())
        else:
            out.append(f'ok {i} {name}')
    if not groups:
        out.append('Bail out! no results: nothing ran')
    out.append('# Totals: ' + ' '.join(f'{v}:{counts[v]}' for v in
                                      ('pass', 'fail', 'xfail', 'skip', WRONG_CS, 'error')))
    return '\n'.join(out) + '\n'


# The exit status of the verdict, and what it means.
EXIT_WHY = {0: 'no test failed', 1: 'a test failed', 2: 'the harness failed'}


def cmd_summary(a):
    groups = load_groups(a.files)
    rows = [r for _, g in groups for r in g]
    rerun = Rerun(a.base, a.series, a.plan_boots)
    suites = {}
    for r in rows:
        t = suites.setdefault(suite_of(r['test']), dict.fromkeys(VERDICTS, 0))
        t[verdict(r)] += 1
    print(f'{"suite":<20} {"passed":>7} {"failed":>7} {"skipped":>8} {"xfail":>6} '
          f'{"wrong-cs":>9} {"error":>6}')
    for s in sorted(suites):
        t = suites[s]
        print(f'{s:<20} {t["pass"]:>7} {t["fail"]:>7} {t["skip"]:>8} {t["xfail"]:>6} '
              f'{t[WRONG_CS]:>9} {t["error"]:>6}')
    fails = [r for r in rows if verdict(r) == 'fail']
    if fails:
        print('\nfailed (with what each said, and the command that reruns it alone; '
              'the whole console is the log named):')
        for r in fails:
            print(f'  {r["boot"]}: {r["test"]}: {r["detail"]}\n    log: {r["log"]}\n'
                  f'    rerun: {rerun(r)}')
            for line in r.get('output', []):
                print(f'    | {line[:160]}')
    errors = [r for r in rows if verdict(r) == 'error']
    if errors:
        print('\nerrors: the harness failed, these did not run (exit status 2):')
        # A boot that never booted: its own row, and how many more it holds.
        dead = {r['test'].removeprefix('boot:') for r in errors if r['test'].startswith('boot:')}
        for r in errors:
            if r['test'].startswith('boot:') or r['boot'] not in dead:
                print(f'  {r["boot"]}: {r["test"]}: {r["detail"]}\n    log: {r["log"]}\n'
                      f'    rerun: {rerun(r)}')
                for line in r.get('output', [])[-4:]:
                    print(f'    | {line[:160]}')
            if r['test'].startswith('boot:'):
                more = sum(x['boot'] == r['boot'] for x in errors) - 1
                if more:
                    print(f'    ({more} more results of this boot: none ran)')
    # The results that are neither passes nor failures, by test.
    for v, title in (('skip', 'skipped'),
                     ('xfail', 'xfail: known failures (plan/known-failures*)'),
                     (WRONG_CS, 'wrong clocksource: th.cs= boots whose test ran on another')):
        by = {}
        for r in rows:
            if verdict(r) == v:
                t = by.setdefault(program_of(r['test']), [0, set()])
                t[0] += 1
                t[1].add(r['boot'])
        if by:
            print(f'\n{title}, by test (the lines of each boot above say why):')
            for test in sorted(by):
                n, boots = by[test]
                print(f'  {test}: {n} in {len(boots)} boot{"s" if len(boots) > 1 else ""}')
    counts = {v: sum(t[v] for t in suites.values()) for v in VERDICTS}
    if not rows:
        print('no results: nothing ran')
        counts['error'] = 1
    code = 2 if counts['error'] else 1 if counts['fail'] else 0
    if a.ktap:
        header = f'time interpolator harness: BASE={a.base or "6.1"}' + \
                 (f' SERIES={a.series}' if a.series else '') + \
                 f', {len(groups)} results file{"s" if len(groups) != 1 else ""}'
        with open(a.ktap, 'w') as f:
            f.write(ktap(groups, rerun, counts, header))
    print(f'{tally_line(counts)}; exit status {code}: {EXIT_WHY[code]}')
    return code


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
    b.add_argument('--system-map',
                   help="the booted kernel's System.map, to name a kernel report's addresses "
                        '(default: the one beside the kernel the log\'s first line names)')
    b.add_argument('--out', required=True)
    s = sub.add_parser('summary')
    s.add_argument('--ktap', help='write the verdict as KTAP to this file')
    s.add_argument('--base', default='6.1', help="the run's BASE, for the rerun commands")
    s.add_argument('--series', default='', help="the run's SERIES, for the rerun commands")
    s.add_argument('--plan-boots', default='plan/boots',
                   help="the run's PLAN_BOOTS: the plan files its boots came from")
    s.add_argument('files', nargs='*')
    a = p.parse_args()
    # A crash of this script is the harness's failure, not a test's:
    # status 2 (argparse's own for bad arguments), never Python's 1.
    try:
        return cmd_boot(a) if a.cmd == 'boot' else cmd_summary(a)
    except Exception:	# pylint: disable=broad-except
        traceback.print_exc()
        print('error: results.py failed', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
