#!/usr/bin/env bash
# The credentials benchmark (issue 13) alone: run-worker-benchmark.sh --only credentials, with the same options
# (see its --help, section 4). For a quick run that shows it works:
#
#   Benchmarks/run-credentials-benchmark.sh --repetitions 1 --requests 3000 --parcels 200000 \
#       --revocation-in-flight 200
#
# (with CREDENTIALS_ARGS="--skip 300" for the shorter runs).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-worker-benchmark.sh" --only credentials "$@"
