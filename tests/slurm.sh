#!/bin/sh
# The endgame databases built through a real single-node Slurm (make slurm-check; not in
# make check: it starts munge, slurmctld and slurmd as root for a few minutes). Debian's
# slurm-wlm and munge are installed when missing; where they cannot be (no root, no
# network) the test says so and stops. The 5-piece level's plan (egdb build --plan
# slurm) is submitted, every job runs after the jobs of the pairs it reads, and the
# slices are checked against a build on this machine alone (their values) and by
# egdb verify; then again by parts (--memory 64: each pair past it as jobs of its
# parts and a join), the same files byte for byte.
set -u
PDNKIT=${PDNKIT:-$(cd "$(dirname "$0")/.." && pwd)/pdnkit}
PIECES=${PIECES:-5}
fail() { echo "FAIL slurm: $*"; exit 1; }
skip() { echo "SKIP slurm: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "Slurm's daemons need root"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
		skip "slurm-wlm and munge cannot be installed here"
fi
T=$(mktemp -d)
HOST=$(hostname -s)
MEM=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
CPUS=$(nproc)
mkdir -p "$T/state" "$T/spool" "$T/log" "$T/db" "$T/ref" "$T/munge"
cat >"$T/slurm.conf" <<CONF
ClusterName=pdnkit
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=pdnkit Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
cleanup() {
	scancel --user=root >/dev/null 2>&1
	[ -f "$T/slurmd.pid" ] && kill "$(cat "$T/slurmd.pid")" 2>/dev/null
	[ -f "$T/slurmctld.pid" ] && kill "$(cat "$T/slurmctld.pid")" 2>/dev/null
	[ -f "$T/munge/munged.pid" ] && kill "$(cat "$T/munge/munged.pid")" 2>/dev/null
	sleep 1
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
# munge with a key of its own, on a socket of its own
dd if=/dev/urandom of="$T/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/key"
chown -R munge "$T/munge" 2>/dev/null
munged --force --key-file="$T/munge/key" --socket="$T/munge/socket" --pid-file="$T/munge/munged.pid" \
	--log-file="$T/munge/log" --seed-file="$T/munge/seed" || fail "munged did not start: $(cat "$T/munge/log" 2>/dev/null)"
# Slurm's munge plugin reads the socket named in AuthInfo
echo "AuthInfo=socket=$T/munge/socket" >>"$T/slurm.conf"
slurmctld -f "$T/slurm.conf" || fail "slurmctld did not start: $(tail -5 "$T/log/slurmctld.log")"
slurmd -f "$T/slurm.conf" || fail "slurmd did not start: $(tail -5 "$T/log/slurmd.log")"
n=0
until sinfo -h -o '%T' 2>/dev/null | grep -q 'idle'; do
	n=$((n + 1))
	[ $n -gt 60 ] && fail "the node never came up: $(sinfo 2>&1; tail -5 "$T/log/slurmctld.log")"
	sleep 1
done
echo "slurm: a node of $CPUS CPUs and $MEM MiB up"
# A plan submitted and waited for: $1 the directory, the rest the plan's options.
run_plan() {
	db=$1
	shift
	mkdir -p "$db"
	"$PDNKIT" egdb build --plan slurm --pieces "$PIECES" --threads 1 --egdb "$db" "$@" >"$T/submit.sh" || fail "no plan"
	t0=$(date +%s)
	LOGS="$T/log/jobs" PDNKIT="$PDNKIT" sh "$T/submit.sh" >"$T/submitted" 2>&1 || fail "the plan was not submitted: $(tail -5 "$T/submitted")"
	jobs=$(grep -c ': job [0-9]' "$T/submitted")
	parts=$(grep -c ':[0-9],[0-9]: job [0-9]' "$T/submitted")
	echo "slurm: $jobs jobs submitted ($parts of them parts)"
	n=0
	while [ -n "$(squeue -h 2>/dev/null)" ]; do
		n=$((n + 1))
		[ $n -gt 3600 ] && fail "the jobs did not end within an hour: $(squeue)"
		if squeue -h -o '%r' 2>/dev/null | grep -q 'DependencyNeverSatisfied'; then
			fail "a job failed, and those after it can never run: $(cat "$T"/log/jobs/*.out 2>/dev/null | head -5)"
		fi
		sleep 2
	done
	t1=$(date +%s)
	want=$("$PDNKIT" egdb build --plan json --pieces "$PIECES" --egdb "$db" --parts never 2>/dev/null | grep -c '"pair"')
	slices=$(ls "$db"/*.egdb 2>/dev/null | wc -l)
	echo "slurm: $slices slices of up to $PIECES pieces in $((t1 - t0)) s ($want pairs)"
	[ "$slices" -gt "$want" ] || fail "only $slices slices built for $want pairs"
	[ ! -e "$db/parts" ] || fail "parts left in $db/parts: $(ls "$db/parts" | head -3)"
}
run_plan "$T/db"
"$PDNKIT" egdb build --pieces "$PIECES" --egdb "$T/ref" --quiet || fail "the reference build failed"
# the same slices as one build (their headers' counts), verified; by parts (each pair
# past 64 MiB as jobs of its parts and a join) the same files byte for byte past the header
for db in "$T/db" "$T/db-parts"; do
	[ "$db" = "$T/db-parts" ] && run_plan "$db" --memory 64
	"$PDNKIT" egdb stats --egdb "$db" --slices --json | sed 's/,"build_seconds":[0-9.]*//' >"$T/a"
	"$PDNKIT" egdb stats --egdb "$T/ref" --slices --json | sed 's/,"build_seconds":[0-9.]*//' >"$T/b"
	cmp -s "$T/a" "$T/b" || fail "the slices built through Slurm into $db differ from one build's: $(diff "$T/a" "$T/b" | head -3)"
	for f in "$T/ref"/*.egdb; do
		cmp -s -i 128 "$f" "$db/$(basename "$f")" || fail "$db/$(basename "$f") differs from one build's"
	done
	"$PDNKIT" egdb verify --egdb "$db" --sample 2000 >"$T/verify" 2>&1 || fail "verify: $(tail -3 "$T/verify")"
	grep -q ', 0 wrong' "$T/verify" || fail "verify: $(tail -3 "$T/verify")"
done
echo "slurm: ok: the same slices as one build, whole and by parts, verified"
