# writestress - see README.md.  Plain make: `make`, `make check`, `make demo`,
# `make asan`, `make tsan`, `make bench`, `make install PREFIX=... DESTDIR=...`,
# `make dist-bin` (the built binary and man page as a tarball, for contrib/ansible).

VERSION  := 0.2.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
# systemd's units (installed disabled; the package enables none)
UNITDIR  ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# zsh's fpath on Debian: vendor-completions under /usr (a package's
# place), site-functions under /usr/local (an admin's)
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
SCHEMADIR ?= $(PREFIX)/share/writestress/schema
CC       ?= cc

# SANITIZE=asan|tsan builds into its own directory so the three builds
# coexist; so does COVERAGE=1 (gcov's instrumentation, for make coverage),
# and COVERAGE=1 with SANITIZE (a sanitizer build that counts its lines
# too, non-atomically: gcov's atomic counters made ASan's datagen 17x
# slower; scripts/coverage.sh BUILD reads any of them).
SANITIZE ?=
COVERAGE ?=
ifneq ($(COVERAGE),)
ifeq ($(SANITIZE),)
BUILD    ?= build/coverage
else
BUILD    ?= build/$(SANITIZE)-coverage
endif
else ifeq ($(SANITIZE),)
BUILD    ?= build
else
BUILD    ?= build/$(SANITIZE)
endif

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wvla -Wformat=2 -Wpointer-arith -Wundef -Wno-format-nonliteral
CFLAGS   ?= -O2 -g
ifneq ($(WERROR),)
WARN     += -Werror
endif
ifeq ($(SANITIZE),asan)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
ifeq ($(SANITIZE),tsan)
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
endif
ifneq ($(COVERAGE),)
ifeq ($(SANITIZE),)
SANFLAGS := --coverage
CFLAGS   := -O0 -g -DWS_COVERAGE
else
SANFLAGS += --coverage -fprofile-update=single -DWS_COVERAGE
endif
endif

ALL_CPPFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude -DWS_VERSION='"$(VERSION)"' $(CFLAGS_JSON) $(CFLAGS_TRACE) $(CPPFLAGS)
ALL_CFLAGS   = $(WARN) $(CFLAGS) $(SANFLAGS) -pthread -MMD -MP
ALL_LDFLAGS  = $(LDFLAGS) $(SANFLAGS) -pthread
LIBS_CAP     = $(shell pkg-config --libs libcap 2>/dev/null || echo -lcap)
# json-c reads result files for `writestress compare`
LIBS_JSON    = $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
CFLAGS_JSON  = $(shell pkg-config --cflags json-c 2>/dev/null)
# liburing queues O_DIRECT writes (--iodepth)
LIBS_URING   = $(shell pkg-config --libs liburing 2>/dev/null || echo -luring)
# libsqlite3: the sqlite probe commits to a real database
LIBS_SQLITE  = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
# libtracefs and libtraceevent: the device's requests from the kernel's
# tracepoints (src/trace)
LIBS_TRACE   = $(shell pkg-config --libs libtracefs libtraceevent 2>/dev/null || echo -ltracefs -ltraceevent)
CFLAGS_TRACE = $(shell pkg-config --cflags libtracefs libtraceevent 2>/dev/null || echo -I/usr/include/tracefs -I/usr/include/traceevent)
LIBS_CHECK   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt)

# src/LAYER/*.c (src/README.md: the layers and what each may include); a
# folder's public headers are in include/LAYER/, its internal ones beside
# its sources.  Objects mirror the tree under $(BUILD)/obj.
SRCS      := $(sort $(shell find src -name '*.c'))
MAIN_SRC  := src/cli/main.c
LIB_OBJS  := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(filter-out $(MAIN_SRC),$(SRCS)))
TEST_SRCS := $(sort $(shell find tests/unit -name '*.c'))
TEST_OBJS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%.o,$(TEST_SRCS))

BIN      := $(BUILD)/writestress
# bash and zsh completion, written by the built program from its option
# tables
COMPLETION := $(BUILD)/completion/writestress
ZSH_COMPLETION := $(BUILD)/completion/_writestress
COMPLETIONS := $(COMPLETION) $(ZSH_COMPLETION)
TESTBIN  := $(BUILD)/unit-tests
TESTHELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/helpers/%,$(wildcard tests/helpers/*.c)) \
               $(patsubst tests/preload/%.c,$(BUILD)/helpers/%.so,$(wildcard tests/preload/*.c))

.PHONY: FORCE all deps check check-build check-run check-deb update-expected coverage coverage-run demo demo-run asan tsan bench install uninstall dist-bin deb clean

all: $(BIN) $(COMPLETIONS)

# The commit and the libraries' versions --version names: rewritten only
# when they change, so version.o is rebuilt only then.
$(BUILD)/gen/build_info.h: FORCE
	@sh scripts/build-info.sh $@

$(BUILD)/obj/cli/version.o: $(BUILD)/gen/build_info.h
$(BUILD)/obj/cli/version.o: ALL_CPPFLAGS += -include $(BUILD)/gen/build_info.h

$(COMPLETION): $(BIN)
	@mkdir -p $(dir $@)
	$(BIN) completion bash >$@.tmp && mv $@.tmp $@

$(ZSH_COMPLETION): $(BIN)
	@mkdir -p $(dir $@)
	$(BIN) completion zsh >$@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# Unit tests may reach a folder's internal headers too (src/LAYER/x.h).
$(BUILD)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -Isrc -Itests/unit $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libwritestress.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/obj/cli/main.o $(BUILD)/libwritestress.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS_CAP) $(LIBS_JSON) $(LIBS_URING) $(LIBS_SQLITE) $(LIBS_TRACE) -lm

$(TESTBIN): $(TEST_OBJS) $(BUILD)/libwritestress.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS_CHECK) $(LIBS_CAP) $(LIBS_JSON) $(LIBS_URING) $(LIBS_SQLITE) $(LIBS_TRACE) -lm

$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $<

# LD_PRELOAD shims for black-box tests (no sanitizer: they load into any build)
$(BUILD)/helpers/%.so: tests/preload/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -shared -fPIC -o $@ $< -ldl

# Missing build dependencies are installed (root) or named (everyone else).
deps:
	@sh scripts/deps.sh

# The README's test command: unit tests (Check) then black-box CLI tests,
# each several at once (tests/unit/run.sh, tests/cli/run.sh; WS_JOBS
# overrides how many), built with every CPU.  Prints its time at the end.
# CLI_TESTS="t_a t_b" runs only those CLI tests (all by default).
NPROC    := $(shell nproc 2>/dev/null || echo 2)
CLI_TESTS ?=

check: deps
	@$(MAKE) --no-print-directory check-run

check-build: $(BIN) $(COMPLETIONS) $(TESTBIN) $(TESTHELPERS)

check-run:
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j$(NPROC) check-build && \
	SANITIZE=$(SANITIZE) bash tests/unit/run.sh $(abspath $(TESTBIN)) && \
	WS=$(abspath $(BIN)) HELPERS=$(abspath $(BUILD)/helpers) SANITIZE=$(SANITIZE) bash tests/cli/run.sh $(CLI_TESTS) && \
	echo "check$(if $(SANITIZE), ($(SANITIZE))): passed in $$(($$(date +%s) - start)) s"

# After a deliberate change to an output: rewrite the stale golden files
# of the sinks' suites (tests/expected), naming each, then run the suites
# as usual and show what changed.  Any other failure stops it: a golden
# file is rewritten only by a suite that otherwise passes.  A normal run
# never rewrites them.
update-expected: $(TESTBIN)
	$(TESTBIN) --update-expected >$(BUILD)/update-expected.log
	@grep '^update-expected: ' $(BUILD)/update-expected.log || echo "update-expected: every golden file was current"
	$(TESTBIN) >/dev/null
	@git diff --stat -- tests/expected 2>/dev/null || true

# Line and branch coverage of src/ by the unit tests and the CLI tests
# (gcov + gcovr): a table per file, then one line starting "coverage:".
coverage:
	@sh scripts/deps.sh coverage
	@$(MAKE) --no-print-directory COVERAGE=1 coverage-run

# A failing test fails it (after the coverage is printed): a suite that
# failed did not run what it covers.
coverage-run:
	@$(MAKE) --no-print-directory -j$(NPROC) check-build
	find $(BUILD) -name '*.gcda' -delete
	@st=0; \
	bash tests/unit/run.sh $(abspath $(TESTBIN)) >$(BUILD)/unit.log 2>&1 || st=1; \
	tail -n 1 $(BUILD)/unit.log; \
	WS=$(abspath $(BIN)) HELPERS=$(abspath $(BUILD)/helpers) bash tests/cli/run.sh >$(BUILD)/cli.log 2>&1 || st=1; \
	tail -n 2 $(BUILD)/cli.log; \
	sh scripts/coverage.sh $(BUILD) || st=1; \
	[ $$st -eq 0 ] || { echo "coverage: the suite failed ($(BUILD)/unit.log, $(BUILD)/cli.log): not the coverage of a passing suite"; exit 1; }

# The package test (tests/cli/t_deb.sh): make deb, lintian, apt-get
# install, a run, the Ansible role installing it, apt-get purge.  Not in
# make check: it changes the machine's packages (as root; CI runs it).
check-deb: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(BIN) $(COMPLETIONS)
	@WS=$(abspath $(BIN)) HELPERS=$(abspath $(BUILD)/helpers) bash tests/cli/run.sh t_deb

asan: deps
	@$(MAKE) --no-print-directory SANITIZE=asan check-run

tsan: deps
	@$(MAKE) --no-print-directory SANITIZE=tsan check-run

# The main job in one command: as root, the same file written three ways on
# a slow disk of its own, under the fsync probe (scripts/demo.sh); else a
# short paced run in the current directory.
demo: deps
	@$(MAKE) --no-print-directory demo-run

demo-run: $(BIN)
	sh scripts/demo.sh $(abspath $(BIN))

bench:
	@sh scripts/deps.sh bench
	@$(MAKE) --no-print-directory $(BIN)
	BENCH_COMMAND="make bench" sh bench/run.sh $(abspath $(BIN))

install: $(BIN) $(COMPLETIONS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/writestress
	install -m 0644 man/writestress.1 $(DESTDIR)$(MANDIR)/man1/writestress.1
	install -m 0644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/writestress
	install -m 0644 $(ZSH_COMPLETION) $(DESTDIR)$(ZSHCOMPDIR)/_writestress
	install -d $(DESTDIR)$(SCHEMADIR)
	install -m 0644 doc/schema/*.schema.json $(DESTDIR)$(SCHEMADIR)/
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|/usr/bin/writestress|$(BINDIR)/writestress|' contrib/systemd/writestress-watch.service \
		>$(DESTDIR)$(UNITDIR)/writestress-watch.service

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/writestress $(DESTDIR)$(MANDIR)/man1/writestress.1 \
	      $(DESTDIR)$(BASHCOMPDIR)/writestress $(DESTDIR)$(ZSHCOMPDIR)/_writestress
	rm -rf $(DESTDIR)$(SCHEMADIR)
	rm -f $(DESTDIR)$(UNITDIR)/writestress-watch.service

# The Debian package (debian/, dh): built by dpkg-buildpackage from a
# copy of the tree in $(BUILD)/deb, so neither the tree nor its parent
# gets the build's files; the .deb, .buildinfo and .changes land in
# $(BUILD)/deb.  The commit --version names is the tree's.  It compiles
# with a job per CPU unless DEB_BUILD_OPTIONS already says parallel=.
DEBSTAGE := $(BUILD)/deb/writestress-$(VERSION)

deb:
	@sh scripts/deps.sh deb
	rm -rf $(BUILD)/deb
	mkdir -p $(DEBSTAGE)
	tar -c --exclude=./build --exclude=./.git . | tar -x -C $(DEBSTAGE)
	commit="$$(sh scripts/build-info.sh --commit)" && cd $(DEBSTAGE) && WS_BUILD_COMMIT="$$commit" \
		DEB_BUILD_OPTIONS="$$(case " $$DEB_BUILD_OPTIONS " in *' parallel='*) ;; *) echo "parallel=$$(nproc) ";; esac)$$DEB_BUILD_OPTIONS" \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b
	rm -rf $(DEBSTAGE)
	@ls $(BUILD)/deb/*.deb

# What `make install` installs, as a tarball relative to the prefix, for hosts
# that do not build it (contrib/ansible unpacks it into writestress_prefix).
DISTBIN := $(BUILD)/writestress-$(VERSION)-linux-$(shell uname -m).tar.gz

dist-bin: $(DISTBIN)

$(DISTBIN): $(BIN) man/writestress.1 scripts/dist-bin.sh
	sh scripts/dist-bin.sh $(BIN) man/writestress.1 $@
	@echo $@

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(BUILD)/tests -name '*.d' 2>/dev/null)
