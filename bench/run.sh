#!/bin/sh
# bench/run.sh — run every part's benchmarks.
#
# Each part keeps its benchmarks behind bench/<part>/run.sh (which builds what
# it needs in the release build $BENCH_BUILD, default build-bench). Add your
# part's script to the list below; a run.sh found but not listed still runs,
# after the listed ones. Exit status: non-zero if any of them failed.

set -u

here=$(cd "$(dirname "$0")" && pwd)

BENCHES="
atp/run.sh
server/run.sh
app/run.sh
browse/run.sh
cli/run.sh
"

status=0
ran=""

run_one ()
{
  script=$1
  echo "== bench/$script =="
  if ! sh "$here/$script"; then
    echo "bench/$script: FAILED" >&2
    status=1
  fi
  ran="$ran $script"
}

for script in $BENCHES; do
  if [ -f "$here/$script" ]; then
    run_one "$script"
  else
    echo "bench/$script: missing" >&2
    status=1
  fi
done

# The app's heavy previews and huge request: the main loop's worst stall.
echo "== bench/app/run.sh --preview =="
if ! sh "$here/app/run.sh" --preview; then
  echo "bench/app/run.sh --preview: FAILED" >&2
  status=1
fi

# A multi_choice of 20,000 options shown, searched and ticked: the main loop's worst stall.
echo "== bench/app/run.sh --choices =="
if ! sh "$here/app/run.sh" --choices; then
  echo "bench/app/run.sh --choices: FAILED" >&2
  status=1
fi

for path in "$here"/*/run.sh; do
  [ -f "$path" ] || continue
  script=${path#"$here"/}
  case " $ran " in
    *" $script "*) ;;
    *) run_one "$script" ;;
  esac
done

exit $status
