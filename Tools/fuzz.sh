#!/usr/bin/env bash
# Fuzzes every parser of outside input with libFuzzer, for a bounded time each: builds
# `provisio-fuzz` with `--sanitize=fuzzer` (release, in its own scratch path .build-fuzz, so it never
# touches .build), then runs each target from its committed seeds (Fuzz/Corpus/<target>) with its
# dictionary. Prints what libFuzzer reports per target; exits 1 if any target found a crash, a
# violation of its checks, a hang or a leak of memory past the limit.
#
#   Tools/fuzz.sh                        # every target, 20 s each (CI)
#   Tools/fuzz.sh --seconds 300 json     # one target, longer
#   PROVISIO_FUZZ_SECONDS=60 Tools/fuzz.sh
#
# New inputs go to .build-fuzz/fuzz/corpus/<target> (emptied at each run: the committed corpus is
# read, never written). A failing input is saved under .build-fuzz/fuzz/artifacts/<target>/;
# `swift run provisio-fuzz --target=<target> <file>` runs it once in an ordinary debug build.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${PROVISIO_FUZZ_SECONDS:-20}"
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#--seconds=}"; shift ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done

# -DPROVISIO_LIBFUZZER compiles libFuzzer's entry into provisio-fuzz instead of its replay command's
# main. Release: the parsers run about ten times faster than in debug, so a bounded run tries more.
build=(swift build --scratch-path .build-fuzz -c release --sanitize=fuzzer -Xswiftc -DPROVISIO_LIBFUZZER)
start=$SECONDS
"${build[@]}" --product provisio-fuzz
echo "fuzz.sh: built in $((SECONDS - start)) s"
fuzzer="$("${build[@]}" --show-bin-path)/provisio-fuzz"
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <("$fuzzer" --list-targets)
fi

work=.build-fuzz/fuzz
failed=()
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target" artifacts="$work/artifacts/$target" log="$work/logs/$target.log"
    rm -rf "$corpus" "$artifacts"
    mkdir -p "$corpus" "$artifacts" "$work/logs" "$work/dictionaries"
    dictionary="$work/dictionaries/$target.dict"
    "$fuzzer" --target="$target" --print-dictionary >"$dictionary"
    # The scratch folder first: libFuzzer writes new inputs into the first corpus folder only.
    # -timeout: one input that runs 10 s is a hang. --allow-known-findings: a reported parser bug
    # (FuzzKnownFindings) is printed once, not failed on; anything else aborts and is saved.
    status=0
    "$fuzzer" --target="$target" --allow-known-findings -dict="$dictionary" -seed=1 -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
        "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    # The last status line: DONE after a clean run, else the last before the failure.
    done_line="$(grep -E '^#[0-9]+[[:space:]]+(DONE|INITED|NEW|REDUCE|pulse)' "$log" | tail -n 1 || true)"
    field() { sed -nE "s/.* $1: ([0-9a-zA-Z/]+).*/\1/p" <<<"$done_line"; }
    stat_of() { sed -nE "s/^stat::$1: *([0-9.]+)$/\1/p" "$log"; }
    echo "$target: $(stat_of number_of_executed_units) runs, $(stat_of average_exec_per_sec) exec/s," \
        "coverage $(field cov) edges, $(field ft) features, corpus $(field corp) ($(stat_of new_units_added) new)," \
        "slowest input $(stat_of slowest_unit_time_sec) s, peak $(stat_of peak_rss_mb) MB"
    grep -E '^provisio-fuzz: KNOWN FINDING' "$log" || true
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        echo "==== $target FAILED (libFuzzer exit $status); the end of $log:"
        grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|RELOAD)' "$log" | tail -n 40
        for file in "$artifacts"/*; do
            [ -e "$file" ] || continue
            echo "  saved input: $file"
            echo "  run it once: swift run provisio-fuzz --target=$target $file"
            echo "               (or $fuzzer --target=$target $file)"
        done
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz.sh: FAILED: ${failed[*]}"
    exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, $seconds s each, no failure ($((SECONDS - start)) s in all)"
