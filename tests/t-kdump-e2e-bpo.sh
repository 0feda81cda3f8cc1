#!/bin/bash
# End to end on Debian 13 with today's kernel: tests/t-kdump-e2e.sh with a
# trixie guest running the trixie-backports cloud kernel (7.x), trixie's
# kdump-tools and makedumpfile, ktrace's trixie packages installed with apt.
KTRACE_E2E_SUITE=trixie-backports exec bash "$(dirname "$0")/t-kdump-e2e.sh"
