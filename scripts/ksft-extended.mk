# SPDX-License-Identifier: GPL-2.0
# Read after a selftest collection's own Makefile: lists the programs that
# kselftest's emit_tests leaves out (the destructive, "extended" ones).
emit_extended_tests:
	@for TEST in $(TEST_GEN_PROGS_EXTENDED) $(TEST_PROGS_EXTENDED); do \
		echo "$(COLLECTION):$$(basename $$TEST)"; \
	done
