#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the IA64 time fastcalls on the disassembly of a linked vmlinux.

  ia64-fsys-check.py --vmlinux FILE --unistd UNISTD_64_H [--tools PREFIX]
                     [--out JSON]

No IA64 machine or emulator is at hand, so what the fastcalls of
arch/ia64/kernel/fsys.S do is checked on their code, as linked:

  seq-retry     fsys_gettimeofday reads the sequence with ld4.acq, reads it
                again with ld4 from the same address, compares the two with
                cmp4 and branches back to the first read when they differ.
  guard-flag    the guard's predicate is computed from a byte loaded with
                ld1.acq (time_interpolator.compensate) and nothing else.
  guard-atomic  there is a cmpxchg, and every atomic instruction of the
                fastcall (cmpxchg, xchg, fetchadd) is predicated by a
                predicate that implies the guard's: with compensation off
                the path executes no atomic operation.
  guard-behind  a branch to fsys_fallback_syscall is taken only under the
                guard (a counter behind the last value takes the syscall).
  ns-entry      fsys_clock_gettime_ns enters the critical section that
                fsys_clock_gettime enters.
  table-*       fsyscall_table holds the fastcall at the slot of its syscall
                number: gettimeofday, clock_gettime, clock_gettime_ns.
  mutants       the checks above fail on mutated copies of the code: the
                cmpxchg unpredicated, the guard's compare unqualified, the
                flag loaded without .acq, the retry branch removed.

One JSON row per check (boot "ia64", test "ia64:NAME"), as results.py
summary reads them; exit status 1 when a check fails.
"""

import argparse
import json
import re
import subprocess
import sys

ATOMIC = re.compile(r'^(cmpxchg|xchg|fetchadd)')
PRED_WRITERS = re.compile(r'^(cmp|cmp4|tbit|tnat|tf|fcmp|fclass)\.')


def pred(name):
    return 'p%d' % int(name[1:])


class Insn:
    def __init__(self, addr, qp, op, args):
        self.addr = addr
        self.qp = pred(qp) if qp else 'p0'
        self.op = op
        # objdump writes p06 for p6 and ends a group with ';;'
        self.args = re.sub(r'\bp0*(\d)', r'p\1', args.split('//')[0]).strip().rstrip(';')

    def pred_targets(self):
        """The predicates a compare writes: 'pA,pB=...'."""
        if not PRED_WRITERS.match(self.op):
            return []
        lhs = self.args.split('=', 1)[0]
        return [p.strip() for p in lhs.split(',') if re.fullmatch(r'p\d+', p.strip())]

    def regs_read(self):
        rhs = self.args.split('=', 1)[1] if '=' in self.args else self.args
        return re.findall(r'\br\d+\b', rhs)

    def dest_reg(self):
        m = re.match(r'(r\d+)\s*=', self.args)
        return m.group(1) if m else None

    def load_base(self):
        m = re.search(r'=\s*\[(r\d+)\]', self.args)
        return m.group(1) if m else None

    def branch_target(self):
        m = re.match(r'([0-9a-f]+)\s*(?:<.*>)?$', self.args)
        return int(m.group(1), 16) if m and self.op.startswith('br.') else None

    def __str__(self):
        q = f'({self.qp}) ' if self.qp != 'p0' else ''
        return f'{self.addr:x}: {q}{self.op} {self.args}'


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def symbols(tools, vmlinux):
    syms = {}
    for line in run([tools + 'nm', vmlinux]).splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms.setdefault(parts[2], int(parts[0], 16))
    return syms


def disassemble(tools, vmlinux, start, stop):
    out = run([tools + 'objdump', '-d', '--no-show-raw-insn', vmlinux,
               f'--start-address={start:#x}', f'--stop-address={stop:#x}'])
    insns = []
    for line in out.splitlines():
        # --no-show-raw-insn: "addr:\t[MII]  (p06) op args"
        m = re.match(r'^\s*([0-9a-f]+):\s*(?:\[[A-Z]+\])?\s*(?:\((p\d+)\)\s+)?'
                     r'([a-z][\w.]*)\s*(.*)$', line)
        if m:
            insns.append(Insn(int(m.group(1), 16), m.group(2), m.group(3), m.group(4)))
    return insns


def bundle(addr):
    return addr & ~0xf


def next_symbol(syms, addr):
    return min(a for a in syms.values() if a > addr)


def check_seq_retry(insns):
    first = next((i for i in insns if i.op == 'ld4.acq'), None)
    if not first:
        return False, 'no ld4.acq of the sequence'
    base = first.load_base()
    rereads = [i for i in insns if i.op == 'ld4' and i.load_base() == base
               and i.addr > first.addr]
    if not rereads:
        return False, f'the sequence at [{base}] is not read again'
    again = {r.dest_reg() for r in rereads}
    back = [b for b in insns if b.branch_target() == bundle(first.addr)
            and b.addr > first.addr and b.qp != 'p0']
    for b in back:
        for c in insns:
            if (c.addr < b.addr and c.op.startswith('cmp4.') and
                    b.qp in c.pred_targets() and again & set(c.regs_read())):
                return True, f'{first}; {c}; {b}'
    return False, f'no cmp4 of the re-read sequence guarding a branch back to {first.addr:x}'


# The scratch registers a time fastcall must clear before it returns to
# user space (FSYS_TIME_RETURN): all but the results (r8-r10), the
# caller's registers (r11-r13, r15) and the caller's pointer (r31).
SCRATCH = {'r2', 'r3', 'r14'} | {f'r{n}' for n in range(16, 31)}


def check_scratch_cleared(insns):
    """Every br.ret of the code is preceded, since the code's previous
    branch, by "mov rN=r0" of each SCRATCH register and no later write
    of it but the McKinley E9 return's "mov r16=ar.pfs"."""
    rets = [i for i in insns if i.op.startswith('br.ret')]
    if not rets:
        return False, 'no return'
    for r in rets:
        last = {}
        for i in insns:
            if i.addr >= bundle(r.addr):
                break
            if i.op.startswith('br') and not (i.op.startswith('br.call') and 'b7' in i.args):
                last = {}
                continue
            d = i.dest_reg()
            if d in SCRATCH:
                last[d] = i
        bad = sorted((reg for reg in SCRATCH
                      if not (reg in last and last[reg].op in ('mov', 'mov.i') and
                              last[reg].qp == 'p0' and
                              (last[reg].args.endswith('=r0') or
                               (reg == 'r16' and 'ar.pfs' in last[reg].args)))),
                     key=lambda s: int(s[1:]))
        if bad:
            return False, f'{r}: not cleared: {" ".join(bad)}'
    return True, f'{len(rets)} returns, each after clearing {len(SCRATCH)} scratch registers'


def guard_flow(insns, fallback):
    """Follow which predicates imply the guard, from its ld1.acq on."""
    flag = next((i for i in insns if i.op == 'ld1.acq'), None)
    if not flag:
        return None, 'no ld1.acq of the compensation flag'
    freg = flag.dest_reg()
    guard = None
    implies = {}
    atomics, behind, bad = [], [], []
    for i in insns:
        if ATOMIC.match(i.op):
            if i.addr < flag.addr or i.qp == 'p0' or not implies.get(i.qp):
                bad.append(f'unguarded {i}')
            atomics.append(i)
        if i.addr < flag.addr:
            continue
        if fallback is not None and i.branch_target() == fallback and i.qp != 'p0':
            behind.append((i, bool(implies.get(i.qp))))
        if i.op.startswith('mov') and i.args.startswith('pr'):
            implies = {}
            continue
        targets = [t for t in i.pred_targets() if t != 'p0']
        if not targets:
            continue
        if guard is None and freg in i.regs_read():
            if (i.qp != 'p0' or len(targets) != 1 or
                    set(i.regs_read()) - {freg, 'r0'}):
                return None, f'the guard predicate is not computed from the flag alone: {i}'
            guard = targets[0]
            implies = {p: v for p, v in implies.items() if p not in targets}
            implies[guard] = True
            continue
        for t in targets:
            q = i.qp
            if t == guard:
                bad.append(f'guard predicate {guard} written again: {i}')
            if q == 'p0':
                implies[t] = False
            elif '.unc' in i.op:
                implies[t] = bool(implies.get(q))
            elif q == t or '.and' in i.op:
                implies[t] = bool(implies.get(t))
            else:
                implies[t] = bool(implies.get(t)) and bool(implies.get(q))
    if guard is None:
        return None, f'nothing computes a predicate from {freg} ({flag})'
    return dict(flag=flag, guard=guard, atomics=atomics, behind=behind, bad=bad), ''


def mutants(insns, fallback):
    """Each mutation of the code must make a check fail; the survivors."""
    import copy

    def mutate(pick, change):
        code = copy.deepcopy(insns)
        hits = [i for i in code if pick(i)]
        if not hits:
            return None
        change(hits[0])
        return code

    def guard_ok(code):
        flow, _ = guard_flow(code, fallback)
        return bool(flow) and not flow['bad'] and \
            any(i.op.startswith('cmpxchg') for i in flow['atomics'])

    flow, _ = guard_flow(insns, fallback)
    guard = flow['guard'] if flow else 'p13'
    seq = next((i for i in insns if i.op == 'ld4.acq'), None)
    retry_target = bundle(seq.addr) if seq else None
    cases = {
        'cmpxchg-unpredicated': (lambda i: i.op.startswith('cmpxchg'),
                                 lambda i: setattr(i, 'qp', 'p0'), guard_ok),
        'guard-compare-unqualified': (lambda i: i.qp == guard and i.pred_targets(),
                                      lambda i: setattr(i, 'qp', 'p0'), guard_ok),
        'flag-not-acquire': (lambda i: i.op == 'ld1.acq',
                             lambda i: setattr(i, 'op', 'ld1'), guard_ok),
        'no-retry-branch': (lambda i: i.branch_target() == retry_target,
                            lambda i: setattr(i, 'op', 'nop.b'),
                            lambda code: check_seq_retry(code)[0]),
    }
    survivors = []
    for name, (pick, change, check) in cases.items():
        code = mutate(pick, change)
        if code is None or check(code):
            survivors.append(name)
    return list(cases), survivors


def table_entry(tools, vmlinux, addr):
    out = run([tools + 'objdump', '-s', f'--start-address={addr:#x}',
               f'--stop-address={addr + 8:#x}', vmlinux])
    data = ''
    for line in out.splitlines():
        m = re.match(r'^\s*[0-9a-f]+ ((?:[0-9a-f]{2,8} ?){1,4})', line)
        if m and not line.startswith('Contents'):
            data += m.group(1).replace(' ', '')
    raw = bytes.fromhex(data[:16])
    return int.from_bytes(raw, 'little') if len(raw) == 8 else None


def syscall_numbers(path):
    """Slots of the fsyscall table: '#define __NR_x (__NR_Linux + N)'."""
    with open(path) as f:
        text = f.read()
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r'#define __NR_(\w+)\s+\(__NR_Linux\s*\+\s*(\d+)\)', text)}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--unistd', required=True)
    ap.add_argument('--tools', default='ia64-linux-gnu-')
    ap.add_argument('--out')
    a = ap.parse_args()

    rows = []

    def record(name, ok, detail):
        rows.append({'boot': 'ia64', 'test': 'ia64:' + name,
                     'status': 'pass' if ok else 'fail', 'detail': detail,
                     'log': a.vmlinux})
        print(f'  {"ok  " if ok else "FAIL"}  ia64:{name}: {detail}')

    syms = symbols(a.tools, a.vmlinux)
    need = ['fsys_gettimeofday', 'fsys_clock_gettime', 'fsys_clock_gettime_ns',
            'fsys_fallback_syscall', 'fsyscall_table']
    missing = [s for s in need if s not in syms]
    record('symbols', not missing, 'missing: ' + ' '.join(missing) if missing
           else 'all fastcall symbols present')
    if set(missing) & {'fsys_gettimeofday', 'fsys_fallback_syscall', 'fsyscall_table'}:
        return finish(rows, a.out)

    gtod = syms['fsys_gettimeofday']
    insns = disassemble(a.tools, a.vmlinux, gtod, next_symbol(syms, gtod))
    fallback = syms['fsys_fallback_syscall']

    ok, detail = check_seq_retry(insns)
    record('seq-retry', ok, detail)

    flow, why = guard_flow(insns, fallback)
    record('guard-flag', flow is not None,
           why or f'{flow["flag"]} -> guard predicate {flow["guard"]}')
    if flow:
        cx = [i for i in flow['atomics'] if i.op.startswith('cmpxchg')]
        ok = bool(cx) and not flow['bad']
        record('guard-atomic', ok,
               '; '.join(flow['bad']) if flow['bad'] else
               'no cmpxchg at all' if not cx else
               'only under the guard: ' + '; '.join(str(i) for i in flow['atomics']))
        guarded = [b for b, g in flow['behind'] if g]
        record('guard-behind', bool(guarded),
               str(guarded[0]) if guarded else 'no fallback branch under the guard')

    ok, detail = check_scratch_cleared(insns)
    record('scratch-cleared', ok, detail)

    names, survivors = mutants(insns, fallback)
    record('mutants', not survivors,
           f'survived: {" ".join(survivors)}' if survivors else
           f'{len(names)} mutants caught: {" ".join(names)}')

    def entry_of(name):
        start = syms[name]
        code = disassemble(a.tools, a.vmlinux, start, next_symbol(syms, start))
        return {i.branch_target() for i in code
                if i.op.startswith('br') and i.qp == 'p0' and i.branch_target()
                and gtod <= i.branch_target() < start}

    common = set()
    if not missing:
        common = entry_of('fsys_clock_gettime') & entry_of('fsys_clock_gettime_ns')
    record('ns-entry', bool(common),
           f'both branch to {min(common):x} in fsys_gettimeofday' if common
           else 'fsys_clock_gettime_ns does not enter the shared critical section')

    nrs = syscall_numbers(a.unistd)
    for call in ('gettimeofday', 'clock_gettime', 'clock_gettime_ns'):
        if call not in nrs:
            record('table-' + call, False, f'no __NR_{call} in {a.unistd}')
            continue
        if 'fsys_' + call not in syms:
            record('table-' + call, False, f'no fsys_{call}')
            continue
        slot = syms['fsyscall_table'] + 8 * nrs[call]
        got = table_entry(a.tools, a.vmlinux, slot)
        want = syms['fsys_' + call]
        record('table-' + call, got == want,
               f'slot {nrs[call]} (syscall {1024 + nrs[call]}) = '
               f'{got:#x}' + (' = fsys_' + call if got == want else f', want {want:#x}')
               if got is not None else f'slot {nrs[call]} unreadable')
    return finish(rows, a.out)


def finish(rows, out):
    if out:
        with open(out, 'w') as f:
            json.dump(rows, f, indent=1)
    return 1 if any(r['status'] == 'fail' for r in rows) else 0


if __name__ == '__main__':
    sys.exit(main())
