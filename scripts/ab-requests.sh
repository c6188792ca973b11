#!/usr/bin/env bash
# The A/B of bench/mpi_requests (persistent mode): scripts/ab-mpi.sh with its
# default program; kept so that the commands recorded in bench/results/ run.
exec "$(dirname "$0")/ab-mpi.sh" "$@"
