#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""run.json: what a make test run was, beside its results.

  run-json.py RESULTS_DIR --command CMD --base BASE --series-version N
              --postings "P1 P2" --start EPOCH [--end EPOCH]
              [--kernel FLAVOUR=KBUILD_DIR ...]

Writes RESULTS_DIR/run.json: this repository's commit (and whether the
checkout had changes), the command line, the base and the series, each
kernel booted (its release, config key and build key, as build-kernel.sh
stamped them), the start and end, per boot its status and counts, and the
totals line of summary.txt.  It reads the boot-NAME.json files that
results.py wrote; a boot with none (it never ran) is left out.
"""
import argparse
import glob
import json
import os
import subprocess
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args):
    try:
        return subprocess.run(['git', '-C', TOP] + list(args), check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ''


def read(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read().strip()
    except OSError:
        return ''


def kernel_info(spec):
    flavour, _, obj = spec.partition('=')
    release = read(os.path.join(obj, 'include/config/kernel.release'))
    return flavour, {
        'release': release or None,
        'config_key': read(os.path.join(obj, '.th-config-key')) or None,
        'build_key': read(os.path.join(obj, '.th-build-key')) or None,
    }


def boot_rows(results):
    boots = {}
    for path in sorted(glob.glob(os.path.join(results, 'boot-*.json'))):
        name = os.path.basename(path)[len('boot-'):-len('.json')]
        try:
            with open(path, encoding='utf-8') as f:
                rows = json.load(f)
        except (OSError, ValueError):
            boots[name] = {'status': 'error', 'detail': 'unreadable ' + path}
            continue
        counts = {}
        for r in rows:
            counts[r.get('status', '?')] = counts.get(r.get('status', '?'), 0) + 1
        boot = next((r for r in rows if r.get('test') == 'boot:' + name), {})
        bad = any(r.get('status') in ('fail', 'error') for r in rows)
        boots[name] = {
            'status': 'fail' if bad else boot.get('status', 'pass'),
            'counts': counts,
            'detail': boot.get('detail', ''),
        }
    return boots


def iso(epoch):
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(epoch))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('results')
    ap.add_argument('--command', required=True)
    ap.add_argument('--base', required=True)
    ap.add_argument('--series-version', required=True)
    ap.add_argument('--postings', default='')
    ap.add_argument('--start', type=int, required=True)
    ap.add_argument('--end', type=int, default=None)
    ap.add_argument('--kernel', action='append', default=[])
    a = ap.parse_args()
    end = a.end if a.end is not None else int(time.time())
    summary = read(os.path.join(a.results, 'summary.txt')).splitlines()
    run = {
        'commit': git('rev-parse', 'HEAD') or None,
        'checkout_changed': bool(git('status', '--porcelain', '--untracked-files=no')),
        'command': a.command,
        'base': a.base,
        'series': {'version': int(a.series_version), 'postings': a.postings.split()},
        'kernels': dict(kernel_info(k) for k in a.kernel),
        'start': iso(a.start),
        'end': iso(end),
        'seconds': end - a.start,
        'boots': boot_rows(a.results),
        'totals': summary[-1] if summary else None,
    }
    with open(os.path.join(a.results, 'run.json'), 'w', encoding='utf-8') as f:
        json.dump(run, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
