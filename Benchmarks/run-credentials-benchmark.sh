#!/usr/bin/env bash
# The credentials benchmark alone: run-worker-benchmark.sh --only credentials, with the same options
# (see its --help, section 4). A smaller run (200,000 parcels; about 5 minutes with the build done):
#
#   Benchmarks/run-credentials-benchmark.sh --repetitions 3 --parcels 200000
#
# Keep --requests at several thousand: a run of a few hundred requests ends inside the worker's first
# rebalance and its rate means nothing.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-worker-benchmark.sh" --only credentials "$@"
