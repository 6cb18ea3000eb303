#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: read the raw outputs of scripts/bench.sh and write
bench.md (Markdown tables), dmt.csv, todscale.csv, cdisp.csv and the PNG
plots (gnuplot) into the results directory.

Raw inputs (RAW/):
  guest-KERNEL-MODE.txt  scripts/guest/bench's sections ("== NAME" lines)
  host-dmt.txt           dmt on the host
  host-vdso.md           scripts/vdso-bench.sh's report (optional)
  host-vdso-6.12.md      the same, BASE=6.12 (optional)
  host-vdso-7.2.md       the same, BASE=7.2 (optional)
  host-guard.md          scripts/guard-bench.sh's report (optional)
  ctxsw.md               scripts/bench-ctxsw.sh's report (optional)

KERNEL is base or patched (6.1), base612 or patched612 (6.12), base72 or
patched72 (7.2).  Every ratio is taken between figures of the same run,
a boot's over the unpatched kernel of its own base.  Guest figures are
emulated (QEMU TCG) and labelled so wherever they appear.
"""
import argparse
import csv
import datetime
import os
import platform
import re
import subprocess
import sys

EMULATED = "emulated (QEMU TCG)"
# Boot order in every table: the base first, then the series' modes; 6.1
# (base, patched), then 6.12 (base612, patched612), then 7.2 (base72,
# patched72).
ORDER = ["base-default", "base-hpet", "patched-default", "patched-nojitter",
         "patched-nowatchdog", "patched-force", "patched-force-nowatchdog",
         "patched-skew", "patched-hpet", "base612-default", "base612-hpet", "patched612-default",
         "patched612-nojitter", "patched612-hpet", "base72-default", "base72-sockets",
         "base72-nowatchdog", "base72-sockets-nowatchdog", "base72-hpet",
         "patched72-default", "patched72-nojitter", "patched72-sockets",
         "patched72-nowatchdog", "patched72-sockets-nowatchdog", "patched72-hpet"]
KERNEL_LABEL = {"base": "6.1", "patched": "series", "base612": "6.12",
                "patched612": "series/6.12", "base72": "7.2", "patched72": "series/7.2"}
# A boot's divisor is its base's unpatched boot of the same mode when the
# mode is in OWN_DIVISOR (the guest's topology differs: th.sockets=2), or
# in OWN_IF_BOOTED and the run booted the base so too (7.2's: without the
# watchdog both kernels keep the TSC), else its base's unpatched default
# boot.
OWN_DIVISOR = ("sockets",)
OWN_IF_BOOTED = ("nowatchdog", "sockets-nowatchdog")
DESCR = {
    "default": "as booted",
    "nojitter": "nojitter",
    "nowatchdog": "nojitter tsc=nowatchdog",
    "force": "time_interpolator.jitter=force",
    "force-nowatchdog": "time_interpolator.jitter=force tsc=nowatchdog",
    "skew": "th.skew=1:-50000 tsc=nowatchdog: vCPU 1's TSC 50 us behind, the guard on",
    "hpet": "clocksource=hpet",
    "sockets": "th.sockets=2: two packages (7.2 distrusts the TSC)",
    "sockets-nowatchdog": "th.sockets=2 tsc=nowatchdog: two packages, no watchdog",
}
# dmt calls drawn in the plot (all of them are in the tables)
PLOT_CALLS = ["gettimeofday", "clock_gettime(REAL)", "clock_gettime(MONO)",
              "clock_gettime(MONO_RAW)", "clock_gettime(MONO_COARSE)",
              "clock_gettime(PROCESS)", "syscall clock_gettime(MONO)",
              "clock_gettime_ns(MONO)", "vdso clock_gettime_ns(MONO)"]


def sections(path):
    """{name: [lines]} of a guest-*.txt file, and the programs' statuses."""
    out, status, cur = {}, {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^== (.*)$", line)
            if m:
                name = m.group(1)
                if name.startswith("status "):
                    status[cur] = int(name.split()[1])
                elif not name.startswith("end"):
                    cur = name
                    out[cur] = []
                continue
            if cur is not None:
                out[cur].append(line)
    return out, status


def parse_state(lines):
    state = {}
    for line in lines:
        k, _, v = line.partition(": ")
        state[k.strip()] = v.strip()
    return state


def parse_dmt(lines):
    """(units per ns, {call: [cost...]}); a skipped call has no costs."""
    per_ns, costs = None, {}
    for line in lines:
        m = re.match(r"^# (cycles|ns) per ns: ([0-9.]+)", line)
        if m:
            per_ns = float(m.group(2))
            continue
        m = re.match(r"^# (.+) (cycles|ns): ([0-9 ]+)$", line)
        if m:
            costs[m.group(1)] = [int(x) for x in m.group(3).split()]
    return per_ns, costs


def parse_todscale(lines):
    rows = []
    for line in lines:
        m = re.match(r"^(\d+),([0-9.]+),([0-9.]+)$", line)
        if m:
            rows.append((int(m.group(1)), float(m.group(2)), float(m.group(3))))
    return rows


def parse_cdisp(lines):
    """[(clock, value, resolution ns)]"""
    rows = []
    for line in lines:
        m = re.match(r"^#\s+(CLOCK_\w+)=\s+([0-9.]+) resolution= (\d+)\.(\d{9})", line)
        if m:
            rows.append((m.group(1), m.group(2),
                         int(m.group(3)) * 10**9 + int(m.group(4))))
    return rows


def cs_after(lines):
    """The clocksource a program's section says it ended on, or ''."""
    for line in lines:
        m = re.match(r"^# clocksource after: (\S+)", line)
        if m:
            return m.group(1)
    return ""


def steady(costs):
    """The fastest of the calls after the first (cold) one: under emulation
    a few of ten calls meet a timer interrupt or a host preemption, and
    the least disturbed call is the one that measures the path."""
    rest = costs[1:] or costs
    return min(rest)


def fmt(x, digits=3):
    return f"{x:.{digits}f}"


def boot_label(name):
    kernel, mode = name.split("-", 1)
    return f"{KERNEL_LABEL.get(kernel, kernel)} {mode}"


def base_boot(name, boots=()):
    """The unpatched boot of a boot's own base that its ratios divide by:
    that kernel's default boot, or its boot of the same mode for a mode of
    OWN_DIVISOR, or of OWN_IF_BOOTED with that boot among @boots."""
    kernel, mode = name.split("-", 1)
    base = "base612" if kernel.endswith("612") else "base72" if kernel.endswith("72") else "base"
    own = mode in OWN_DIVISOR or (mode in OWN_IF_BOOTED and f"{base}-{mode}" in boots)
    return f"{base}-{mode if own else 'default'}"


def col_label(col):
    return "host (native)" if col == "host" else boot_label(col)


def host_cpu():
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def gnuplot(script, out_dir):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       cwd=out_dir, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        err = getattr(e, "stderr", "") or str(e)
        sys.exit(f"bench-report: gnuplot failed: {err}")


def plot_todscale(out, call, boots, tods, maxcpu):
    data = f"todscale-{call}.dat"
    with open(os.path.join(out, data), "w", encoding="utf-8") as f:
        for b in boots:
            rows = tods.get((b, call))
            if not rows:
                continue
            f.write(f'"{boot_label(b)}"\n')
            for cpus, wall, per in rows:
                f.write(f"{cpus} {wall} {per}\n")
            f.write("\n\n")
    n = sum(1 for b in boots if tods.get((b, call)))
    plots = ", ".join(f"'{data}' index {i} using 1:3 with linespoints title columnheader(1)"
                      for i in range(n))
    gnuplot(f"""set terminal pngcairo noenhanced size 800,500 font ",10"
set output 'todscale-{call}.png'
set title "todscale, {call}: WALL/CPUS against CPUs, one boot a line ({EMULATED})"
set xlabel "CPUs (threads, one pinned per vCPU)"
set ylabel "WALL/CPUS (s)"
set logscale x 2
set logscale y 10
set format y "%g"
set xtics (1, 2, 4, 8, 16, 32, 64)
set xrange [0.8:{maxcpu * 1.25}]
set key outside right
set grid
plot {plots}
""", out)
    os.unlink(os.path.join(out, data))


def plot_dmt(out, cols, ns_table):
    calls = [c for c in PLOT_CALLS if any(ns_table.get((c, col)) for col in cols)]
    data = "dmt-ns.dat"
    with open(os.path.join(out, data), "w", encoding="utf-8") as f:
        f.write("call " + " ".join(f'"{col_label(c)}"' for c in cols) + "\n")
        for c in calls:
            vals = [ns_table.get((c, col)) for col in cols]
            f.write(f'"{c}" ' + " ".join(fmt(v, 1) if v else "NaN" for v in vals) + "\n")
    plots = ", ".join(f"'{data}' using {i + 2}:xtic(1) title columnheader({i + 2})"
                      for i in range(len(cols)))
    gnuplot(f"""set terminal pngcairo noenhanced size 1000,560 font ",10"
set output 'dmt-ns.png'
set title "dmt: ns per call (fastest of calls 2-10), by API and build; guest columns {EMULATED}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 10
set ylabel "ns per call (log scale)"
set xtics rotate by -30 font ",9"
set key outside right
set grid ytics
set bmargin 7
plot {plots}
""", out)
    os.unlink(os.path.join(out, data))


def brief(lines):
    """A report without its long per-image sections (they stay in raw/)."""
    out, skip = [], False
    for ln in lines:
        m = re.match(r"^#+ (\w+)", ln)
        if m:
            skip = m.group(1) in ("Images", "Alternatives", "Sanity")
        if not skip:
            out.append(ln)
    return out


def md_table(head, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(head) - 1)
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out)


def text(*lines):
    """Lines of prose, then a blank line."""
    return list(lines) + [""]


def write_csv(path, stamp, header, rows):
    """A CSV file whose first lines, "# ...", say where it comes from."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.writelines(f"# {ln}\n" for ln in stamp)
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def stamp_csv(path, stamp):
    """Put the stamp on a CSV file another script wrote, once."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        body = f.read()
    if not body.startswith("# "):
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(f"# {ln}\n" for ln in stamp)
            f.write(body)


class Run:
    """The raw outputs of one make bench run, parsed."""

    def __init__(self, raw):
        guests = {}
        for fn in sorted(os.listdir(raw)):
            m = re.match(r"^guest-(.+)\.txt$", fn)
            if m:
                guests[m.group(1)] = sections(os.path.join(raw, fn))
        self.boots = [b for b in ORDER if b in guests] + sorted(set(guests) - set(ORDER))
        if not self.boots:
            sys.exit("bench-report: no guest output in " + raw)
        failed = [f"{b}: {p}" for b in self.boots for p, s in guests[b][1].items()
                  if s not in (0, 4)]
        if failed:
            sys.exit("bench-report: programs failed their checks: " + ", ".join(failed))
        self.raw = raw
        self.out = {b: guests[b][0] for b in self.boots}
        self.state = {b: parse_state(self.out[b].get("state", [])) for b in self.boots}
        self.load_dmt()
        self.load_todscale()
        self.cdisp = {b: parse_cdisp(self.out[b].get("cdisp", [])) for b in self.boots}

    def load_dmt(self):
        self.dmt = {b: parse_dmt(self.out[b].get("dmt", [])) for b in self.boots}
        hp = os.path.join(self.raw, "host-dmt.txt")
        if os.path.exists(hp):
            with open(hp, encoding="utf-8") as f:
                self.dmt["host"] = parse_dmt(f.read().splitlines())
        self.cols = list(self.boots) + (["host"] if "host" in self.dmt else [])
        self.calls = []
        self.ns = {}
        for col in self.cols:
            per_ns, costs = self.dmt[col]
            for c, v in costs.items():
                if c not in self.calls:
                    self.calls.append(c)
                self.ns[(c, col)] = steady(v) / per_ns if per_ns else None

    def load_todscale(self):
        self.tods, self.guard, self.tcalls = {}, {}, []
        for b in self.boots:
            for name, lines in self.out[b].items():
                m = re.match(r"^todscale \S+ jitter=(\w+)$", name)
                if m:
                    self.guard[(b, m.group(1))] = parse_todscale(lines)
                elif name.startswith("todscale "):
                    call = name.split()[1]
                    self.tods[(b, call)] = parse_todscale(lines)
                    if call not in self.tcalls:
                        self.tcalls.append(call)

    def args(self, b):
        return DESCR.get(b.split("-", 1)[1], "")

    def stamp(self, a):
        """Where the figures come from: the head of bench.md and of each CSV."""
        kernels = sorted({self.state[b].get("kernel", "?") for b in self.boots})
        date = a.date or datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")
        return [f"date: {date} UTC (the run's start)",
                f"host: {host_cpu()}, {os.cpu_count()} cores, Linux {platform.release()}",
                f"guest kernels: {', '.join(kernels)}",
                f"QEMU: {a.qemu}; every guest figure is {EMULATED}",
                f"command: {a.command}"]

    def write_csvs(self, out, stamp):
        rows = []
        for col in self.cols:
            per_ns, costs = self.dmt[col]
            for c, v in costs.items():
                ns = self.ns[(c, col)]
                rows.append([col, c, per_ns, v[0], steady(v), fmt(ns, 1) if ns else "",
                             " ".join(map(str, v))])
        write_csv(os.path.join(out, "dmt.csv"), stamp, ["where", "call", "units_per_ns", "first",
                                                  "steady_min", "steady_ns", "all_costs"], rows)
        rows = [[b, self.args(b), call, *r] for (b, call), rs in self.tods.items() for r in rs]
        rows += [[b, self.args(b), f"syscall jitter={j}", *r]
                 for (b, j), rs in self.guard.items() for r in rs]
        write_csv(os.path.join(out, "todscale.csv"), stamp,
                  ["boot", "kernel_args", "call", "cpus", "wall_s", "wall_per_cpu_s"], rows)
        rows = [[b, *r] for b in self.boots for r in self.cdisp[b]]
        write_csv(os.path.join(out, "cdisp.csv"), stamp,
                  ["boot", "clock", "value", "resolution_ns"], rows)
        for fn in ("vdso-host.csv", "vdso-host-6.12.csv", "vdso-host-7.2.csv", "guard-host.csv",
                   "ctxsw.csv"):
            stamp_csv(os.path.join(out, fn), stamp)

    def plot(self, out):
        maxcpu = max((r[0] for rows in self.tods.values() for r in rows), default=1)
        for call in self.tcalls:
            plot_todscale(out, call, self.boots, self.tods, maxcpu)
        plot_dmt(out, self.cols, self.ns)

    def last_cs(self, b):
        cs = ""
        for lines in self.out[b].values():
            cs = cs_after(lines) or cs
        return cs or "?"

    def md_boots(self):
        L = ["## Boots", ""]
        L.append(md_table(["boot", "kernel", "arguments", "vCPUs", "clocksource at start",
                           "at the end", "TSC guard"],
                          [[boot_label(b), self.state[b].get("kernel", "?"), self.args(b),
                            self.state[b].get("cpus", "?"),
                            self.state[b].get("clocksource", "?"), self.last_cs(b),
                            self.state[b].get("tsc compensation", "n/a (unpatched)")]
                           for b in self.boots],
                          ["---"] * 3 + ["---:"] + ["---"] * 3))
        L.append("")
        notes = [(b, ln) for b in self.boots for ln in self.out[b].get("log", [])
                 if re.search(r"unstable|skew|Switched to clocksource", ln)]
        if notes:
            L += text("What the kernel logged about its clocksource in these boots:")
            L.append("```")
            L += [f"{boot_label(b)}: {re.sub(r'^<[0-9]>', '', ln).strip()}" for b, ln in notes]
            L += text("```")
        return L

    def md_todscale(self, call):
        L = text(f"## todscale: {call}, WALL (s) of N calls a thread, {EMULATED}")
        cpus = sorted({r[0] for b in self.boots for r in self.tods.get((b, call), [])})
        bases = {base_boot(b, self.boots):
                 {r[0]: r[1] for r in self.tods.get((base_boot(b, self.boots), call), [])}
                 for b in self.boots}
        head = ["boot"] + [f"{c} CPU{'s' if c > 1 else ''}" for c in cpus]
        head += ["clocksource after"]
        if any(bases.values()):
            head += [f"/ its base, {cpus[0]} CPU",
                     f"/ its base, {cpus[-1]} CPUs"]
        rows = []
        for b in self.boots:
            r = {x[0]: x for x in self.tods.get((b, call), [])}
            if not r:
                continue
            row = [boot_label(b)] + [f"{fmt(r[c][1])} ({fmt(r[c][2])})" if c in r else ""
                                     for c in cpus]
            row.append(cs_after(self.out[b].get(f"todscale {call}", [])) or "?")
            if any(bases.values()):
                base = bases[base_boot(b, self.boots)]
                row += [fmt(r[c][1] / base[c], 2) if c in r and base.get(c) else ""
                        for c in (cpus[0], cpus[-1])]
            rows.append(row)
        L.append(md_table(head, rows))
        L.append("")
        return L + text("Each cell: WALL (WALL/CPUS), the seed's columns; the last columns are",
                        "WALL over the unpatched kernel's WALL at the same CPU count, on the",
                        "boot's own base (6.1, 6.12 or 7.2), booted as is (a th.sockets=2",
                        "boot: over that kernel's th.sockets=2 boot, the same topology; a",
                        "7.2 nowatchdog boot: over the base's boot of the same arguments).",
                        "Plot:",
                        f"[todscale-{call}.png](todscale-{call}.png).")

    def md_guard(self):
        gboots = [b for b in self.boots
                  if self.guard.get((b, "off")) and self.guard.get((b, "force"))]
        if not gboots:
            return []
        L = text(f"## The guard's cost in one boot: syscall(clock_gettime), {EMULATED}")
        L += text("todscale -c syscall with time_interpolator.jitter switched at run time to",
                  "off, then to force, in the same boot: the system call path without and",
                  "with the guard's cmpxchg on the counter's last value.")
        rows = []
        for b in gboots:
            off = {r[0]: r for r in self.guard[(b, "off")]}
            force = {r[0]: r for r in self.guard[(b, "force")]}
            for c in sorted(set(off) & set(force)):
                rows.append([boot_label(b), c, fmt(off[c][1]), fmt(force[c][1]),
                             fmt(force[c][1] / off[c][1], 2) if off[c][1] else ""])
        L.append(md_table(["boot", "CPUs", "WALL, guard off (s)", "WALL, guard on (s)",
                           "on / off"], rows))
        L.append("")
        return L

    def md_dmt(self):
        L = text("## dmt: ns per call, the fastest of calls 2-10 (the first is cold)")
        pairs = [(x, "base-default") for x in ("patched-default", "patched-nojitter",
                                               "patched-nowatchdog")]
        pairs += [(x, "base612-default") for x in ("patched612-default",
                                                   "patched612-nojitter")]
        pairs += [(x, "base72-default") for x in ("patched72-default", "patched72-nojitter")]
        # On two packages, over unpatched 7.2 on two packages; without the
        # watchdog, over unpatched 7.2 without it.
        pairs += [("patched72-sockets", "base72-sockets"),
                  ("patched72-nowatchdog", "base72-nowatchdog"),
                  ("patched72-sockets-nowatchdog", "base72-sockets-nowatchdog")]
        # What 6.12 and 7.2 changed without the series, and the series on
        # each base: as booted, and with the guard on (6.1 as booted, 7.2
        # on two packages).
        pairs += [("base612-default", "base-default"),
                  ("patched612-default", "patched-default"),
                  ("base72-default", "base612-default"),
                  ("patched72-default", "patched612-default"),
                  ("patched72-sockets", "patched-default")]
        ratios = [(x, y) for x, y in pairs if x in self.cols and y in self.cols]
        head = ["call"] + [col_label(c) + ("" if c == "host" else " (emulated)")
                           for c in self.cols]
        head += [f"{boot_label(x)} / {boot_label(y)}" for x, y in ratios]
        rows = []
        for c in self.calls:
            row = [c] + [fmt(self.ns[(c, col)], 1) if self.ns.get((c, col)) else "skip"
                         for col in self.cols]
            for x, y in ratios:
                nx, ny = self.ns.get((c, x)), self.ns.get((c, y))
                row.append(fmt(nx / ny, 2) if nx and ny else "")
            rows.append(row)
        L.append(md_table(head, rows))
        L.append("")
        L += text("Cycles are converted with each run's own TSC rate, measured by dmt against",
                  "CLOCK_MONOTONIC_RAW; \"skip\" is a call that kernel does not have. Plot:",
                  "[dmt-ns.png](dmt-ns.png). The cycles of each call, as the seed printed them:")
        L.append("```")
        for col in self.cols:
            per_ns, costs = self.dmt[col]
            L.append(f"# {col_label(col)}{'' if col == 'host' else ' (emulated)'}"
                     f", {fmt(per_ns or 0)} cycles per ns")
            L += [f"{c} cycles: {' '.join(map(str, v))}" for c, v in costs.items()]
        return L + text("```")

    def md_cdisp(self):
        L = text("## cdisp: clock_getres() by boot (ns)")
        clocks = []
        for b in self.boots:
            clocks += [c for c, _, _ in self.cdisp[b] if c not in clocks]
        res = {(b, c): r for b in self.boots for c, _, r in self.cdisp[b]}
        L.append(md_table(["clock"] + [boot_label(b) for b in self.boots],
                          [[c] + [res.get((b, c), "") for b in self.boots] for c in clocks]))
        L.append("")
        show = "patched-default" if "patched-default" in self.boots else self.boots[0]
        L += text(f"The display of the {boot_label(show)} boot, as the seed showed it:")
        L.append("```")
        L += [ln[2:] for ln in self.out[show].get("cdisp", [])
              if re.match(r"^#\s+(Gettimeofday|CLOCK_)", ln)]
        return L + text("```")

    def md_host_reports(self):
        L = []
        for fn, title in (("host-vdso.md", "The vDSO on the host (native)"),
                          ("host-vdso-6.12.md", "The vDSO of 6.12 on the host (native)"),
                          ("host-vdso-7.2.md", "The vDSO of 7.2 on the host (native)"),
                          ("host-guard.md", "The guard on the host (native)"),
                          ("ctxsw.md", f"Context switches ({EMULATED})")):
            p = os.path.join(self.raw, fn)
            if not os.path.exists(p):
                continue
            with open(p, encoding="utf-8") as f:
                body = f.read().rstrip("\n").splitlines()
            L += text(f"## {title}")
            L += [re.sub(r"^(#+) ", r"#\1# ", ln) for ln in brief(body)]
            L.append("")
        return L

    def markdown(self, a, stamp):
        L = text("# make bench results" + (" (BENCH_QUICK=1)" if a.quick == "1" else ""))
        L += [f"- {ln}" for ln in stamp[:-1]]
        L += text(f"- command: `{a.command}`",
                  "- compare the rows of one run, not the absolute values, and not with",
                  "  real hardware; every ratio is between figures of this one run")
        L += self.md_boots()
        for call in self.tcalls:
            L += self.md_todscale(call)
        L += self.md_guard() + self.md_dmt() + self.md_cdisp() + self.md_host_reports()
        return "\n".join(L)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--quick", default="0")
    ap.add_argument("--date", help="when the run started (default: now), UTC")
    ap.add_argument("--no-plots", action="store_true",
                    help="no PNG files (the harness's tests, without gnuplot)")
    a = ap.parse_args()

    run = Run(a.raw)
    stamp = run.stamp(a)
    run.write_csvs(a.out, stamp)
    if not a.no_plots:
        run.plot(a.out)
    with open(os.path.join(a.out, "bench.md"), "w", encoding="utf-8") as f:
        f.write(run.markdown(a, stamp) + "\n")


if __name__ == "__main__":
    main()
