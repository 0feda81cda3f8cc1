#!/bin/bash
# End to end on Debian 13: tests/t-kdump-e2e.sh with a trixie guest (the
# 6.12 cloud kernel, kdump-tools 1.10, ktrace's packages built in the
# trixie root by scripts/build-debs-trixie and installed with apt).
KTRACE_E2E_SUITE=trixie exec bash "$(dirname "$0")/t-kdump-e2e.sh"
