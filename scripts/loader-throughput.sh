#!/usr/bin/env bash
# The main job's images per second with DataLoader workers against none, --augment on (the per-image
# decode, crop and flip are the loader's work): ROUNDS rounds, each running the job with 0 workers then
# with WORKERS, alternating so machine noise falls on both; a run's rate is the mean of its second half
# of epochs (measured with -XX:+PrintCompilation: on 2 cores the JIT compiles for the run's first ~20 s,
# 3,400 methods in the first 5 s and still ~600 in 15-20 s, none after; with a worker its compiler
# thread takes the core the worker needs, so the full set runs 10 epochs and reads epochs 6-10). Prints each run, each
# round's ratio and the median ratio, and beside each round the
# machine's load average as it started (workers need a free core: on a shared machine, read the ratios
# of the rounds that had one).
# usage: bash scripts/loader-throughput.sh [ROUNDS=3] [WORKERS=1] [job options, e.g. --threads 1]
# Reads the full Fashion-MNIST when /usr/share/datasets/fashion-mnist has it (10 epochs), else the bundled
# sample (8 epochs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
rounds=${1:-3}; workers=${2:-1}; shift $(( $# < 2 ? $# : 2 ))
# CPU only (a CUDA build would add nothing here): the reactor builds the examples against this tree, no install
mvn -B -q -pl bindings,java-api,examples -Djt.cuda=OFF package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
cp="examples/target/classes:$(cat examples/target/classpath.txt)"
full=/usr/share/datasets/fashion-mnist data=() epochs=8
if [ -f "$full/train-images-idx3-ubyte.gz" ] || [ -f "$full/train-images-idx3-ubyte" ]; then data=(--data "$full"); epochs=10; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate() {  # mean images/s of the second half of one run's epochs (metrics.csv: a header, then one line an epoch)
  java -cp "$cp" org.jtensor.examples.fashion.FashionMnist "${data[@]}" --epochs "$epochs" --augment --workers "$1" --out "$out" "${@:2}" > /dev/null 2>&1
  awk -F, -v first=$(( epochs / 2 + 2 )) 'NR >= first { s += $6; n++ } END { printf "%.0f", s / n }' "$out/metrics.csv"
}
echo "Fashion-MNIST loop, --augment, ${data[1]:-bundled sample}, $epochs epochs a run, options: ${*:-none}"
ratios=()
for r in $(seq "$rounds"); do
  load=$(cut -d' ' -f1 /proc/loadavg); none=$(rate 0 "$@"); with=$(rate "$workers" "$@")
  ratio=$(awk -v a="$with" -v b="$none" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio")
  echo "round $r: 0 workers $none images/s, $workers workers $with images/s, ratio $ratio (load average before: $load)"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print "median ratio " (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
