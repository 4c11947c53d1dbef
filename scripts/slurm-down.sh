#!/usr/bin/env bash
# Stops the single-node Slurm cluster started by scripts/slurm-up.sh.
set -uo pipefail
for d in slurmd slurmctld; do
  if [ -f /run/$d.pid ]; then kill "$(cat /run/$d.pid)" 2>/dev/null || true; fi
done
if pgrep -u munge -x munged >/dev/null; then
  pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
fi
echo "slurm-down: stopped"
