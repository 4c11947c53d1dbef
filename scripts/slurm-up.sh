#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine from Debian's packages
# (slurmctld, slurmd, slurm-client, munge), for `make test-slurm`. Run as root.
# Idempotent: does nothing if the controller already answers and the node is
# usable. Logs: /var/log/slurm/. Stop with scripts/slurm-down.sh.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-up: must run as root" >&2
  exit 1
fi
for b in munged slurmctld slurmd sinfo sbatch; do
  if ! command -v "$b" >/dev/null; then
    echo "slurm-up: $b not found: apt-get install -y slurmctld slurmd slurm-client munge" >&2
    exit 1
  fi
done

host=$(hostname -s)

node_ready() {
  sinfo -h -N -n "$host" -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'
}

if scontrol ping 2>/dev/null | grep -q UP && node_ready; then
  echo "slurm-up: already running"
  exit 0
fi

# munge: a key owned by munge, mode 400, and munged running as munge.
mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
chown munge:munge /etc/munge/munge.key /etc/munge /var/lib/munge /var/log/munge /run/munge
chmod 400 /etc/munge/munge.key
chmod 700 /etc/munge /var/lib/munge /var/log/munge
chmod 755 /run/munge
if ! pgrep -u munge -x munged >/dev/null; then
  runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 50); do
  if munge -n </dev/null | unmunge >/dev/null 2>&1; then break; fi
  sleep 0.1
done
munge -n </dev/null | unmunge >/dev/null

# Slurm configuration: one node with every CPU, one partition.
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=ccn
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmUser=root
SlurmdUser=root
ReturnToService=2
MpiDefault=none
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
cat > /etc/slurm/cgroup.conf <<CONF
CgroupPlugin=cgroup/v1
IgnoreSystemd=yes
CONF

if ! pgrep -x slurmctld >/dev/null; then
  slurmctld
fi
for _ in $(seq 100); do
  if scontrol ping 2>/dev/null | grep -q UP; then break; fi
  sleep 0.2
done
if ! pgrep -x slurmd >/dev/null; then
  slurmd
fi
for _ in $(seq 150); do
  if node_ready; then
    echo "slurm-up: node $host ready ($(nproc) CPUs, partition main)"
    sinfo
    exit 0
  fi
  # A node left down or drained by an earlier run comes back.
  scontrol update NodeName="$host" State=RESUME >/dev/null 2>&1 || true
  sleep 0.2
done
echo "slurm-up: node $host did not become ready; see /var/log/slurm/" >&2
sinfo -N -l >&2 || true
tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1
