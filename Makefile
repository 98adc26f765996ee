# pdnkit: build, test, benchmark, install.
#   make            build ./pdnkit
#   make run        install what is missing, build, run the main job on corpora/
#   make egdb       build the endgame databases up to 6 pieces (about 15 min, 67 MB)
#   make egdb-apart check a built level on sampled positions with a solver apart from the builder
#   make check      build and run every test; ends with "N passed, N failed"
#   make bench      performance figures
#   make labels     go on labelling International self-play positions for the next network
#                   (LABEL_MINUTES=90; the labels kept in corpora/selfplay, resumable)
#   make sanitize   run the tests under AddressSanitizer and UBSan
#   make cb         libpdnkit-cb.so: the engine for CheckerBoard-style GUIs
#   make cb-win     pdnkit-cb.dll: the same engine for CheckerBoard on Windows (mingw-w64)
#   make install    PREFIX=/usr/local DESTDIR=

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
CC        ?= cc
PKGS      := sqlite3 libzstd popt libmicrohttpd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lsqlite3 -lzstd -lpopt -lmicrohttpd)

# Link-time optimisation with GCC (about 5% on validate): the archive needs gcc-ar.
LTO       := $(shell $(CC) -v 2>&1 | grep -q 'gcc version' && command -v gcc-ar >/dev/null && echo yes)
ifeq ($(LTO),yes)
# Every core builds unless a -j is given (make -j1: one job at a time).
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif
OPT       ?= -O2 -flto=auto
AR        := gcc-ar
else
OPT       ?= -O2
endif
# Tuned for the building machine (popcount in hardware); "make NATIVE=" for a portable binary.
NATIVE    ?= $(shell $(CC) -march=native -E - </dev/null >/dev/null 2>&1 && echo -march=native)
WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(CI),true)
WARN      += -Werror
endif
CFLAGS    ?= $(OPT) $(NATIVE) -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc $(WARN) $(CFLAGS) $(PKG_CFLAGS) -DPK_VERSION='"$(VERSION)"'
LDLIBS    += $(PKG_LIBS) -lpthread -lm -ldl

BUILD     ?= build
# src/*/*.inc.c are templates, included by the files that instantiate them
SRC       := $(filter-out %.inc.c,$(wildcard src/*/*.c))
CMD       := $(wildcard cmd/*.c)
GEN_C     := $(BUILD)/gen/weights_data.c $(BUILD)/gen/patterns_data.c $(BUILD)/gen/net_data.c $(BUILD)/gen/aliases_data.c $(BUILD)/gen/vweights_data.c $(BUILD)/gen/vpatterns_data.c $(BUILD)/gen/vnets_data.c $(BUILD)/gen/book_data.c $(BUILD)/gen/vbooks_data.c $(BUILD)/gen/css_data.c $(BUILD)/gen/web_data.c
LIB_OBJ   := $(SRC:%.c=$(BUILD)/%.o) $(GEN_C:%.c=%.o)
CMD_OBJ   := $(CMD:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libpdnkit.a
CB_SO     := $(BUILD)/libpdnkit-cb.so
TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_AUX  := tests/naive.c tests/naive_variant.c tests/naive_key.c
MAN       := $(wildcard man/*.1 man/*.5)

# The engine for CheckerBoard on Windows, cross-built by mingw-w64 (Debian's
# gcc-mingw-w64-x86-64-posix), 64-bit: the core's rules, engine, book and the databases'
# reader, without what needs POSIX or libzstd (the store, the server, the protocols, the
# builders; Debian builds no libzstd for mingw-w64, so this library reads no databases).
# Tested by loading it from a small Windows host under wine (tests/test_cb_win.sh).
WIN_CC    ?= x86_64-w64-mingw32-gcc-posix
WIN_HAVE  := $(shell command -v $(WIN_CC) >/dev/null 2>&1 && echo yes)
WIN_SRC   := $(filter-out %.inc.c src/analysis/dxpserve.c src/analysis/hubserve.c src/egdb/build.c src/egdb/parts.c src/egdb/write.c \
		src/egdb/vegdb_build.c src/pdn/zio.c,$(wildcard src/base/*.c src/rules/*.c src/engine/*.c \
		src/book/*.c src/egdb/*.c src/pdn/*.c src/analysis/*.c)) src/proto/cbboard.c cmd/cb/zio_plain.c
WIN_GEN   := $(filter-out %/aliases_data.c %/css_data.c %/web_data.c,$(GEN_C))
WIN_OBJ   := $(WIN_SRC:%.c=$(BUILD)/win/%.o) $(WIN_GEN:$(BUILD)/gen/%.c=$(BUILD)/win/gen/%.o)
WIN_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D__USE_MINGW_ANSI_STDIO=1 -Isrc $(WARN) -O2 -DPK_VERSION='"$(VERSION)"'
WIN_DLL   := $(BUILD)/pdnkit-cb.dll
WIN_HOST  := $(BUILD)/tests/cbwin_host.exe

.PHONY: all cb cb-win run check bench labels egdb egdb-apart sanitize fuzz fuzz-book fuzz-egdb fuzz-merge fuzz-book-merge install uninstall clean deps tests book vbooks slurm-check

PROG      ?= pdnkit

all: $(PROG)

$(PROG): $(CMD_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The engine's default evaluation weights: book/weights.txt, built in as text.
$(BUILD)/gen/weights_data.c: book/weights.txt
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/weights.txt by the Makefile. */'; \
	   echo 'const char eval_weights_text[] ='; \
	   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/gen/weights_data.o: $(BUILD)/gen/weights_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The learned pattern weights (pdnkit train): book/patterns.txt, built in as text.
$(BUILD)/gen/patterns_data.c: book/patterns.txt
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/patterns.txt by the Makefile. */'; \
	   echo 'const char eval_patterns_text[] ='; \
	   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/gen/patterns_data.o: $(BUILD)/gen/patterns_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The learned network (pdnkit train --net): book/net.txt, built in as text.
$(BUILD)/gen/net_data.c: book/net.txt
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/net.txt by the Makefile. */'; \
	   echo 'const char eval_net_text[] ='; \
	   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/gen/net_data.o: $(BUILD)/gen/net_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The players' aliases that ship with pdnkit: book/aliases.txt, built in as text.
$(BUILD)/gen/aliases_data.c: book/aliases.txt
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/aliases.txt by the Makefile. */'; \
	   echo 'const char store_aliases_text[] ='; \
	   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/gen/aliases_data.o: $(BUILD)/gen/aliases_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The fitted weights of the variant engines: book/weights-*.txt, built in as text.
VWEIGHTS  := $(sort $(wildcard book/weights-*.txt))
# Remade every run and replaced only when it differs, so that a file removed counts too.
$(BUILD)/gen/vweights_data.c: FORCE
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/weights-*.txt by the Makefile. */'; \
	   echo 'const char *const vweights_texts[] = {'; \
	   for f in $(VWEIGHTS); do \
	     echo '""'; sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $$f; echo ','; \
	   done; echo '0 };'; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

.PHONY: FORCE
FORCE:

$(BUILD)/gen/vweights_data.o: $(BUILD)/gen/vweights_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The learned patterns of the 10x10 variants: book/vpatterns-*.txt, built in as text.
VPATTERNS := $(sort $(wildcard book/vpatterns-*.txt))
$(BUILD)/gen/vpatterns_data.c: FORCE
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/vpatterns-*.txt by the Makefile. */'; \
	   echo 'const char *const vpatterns_texts[] = {'; \
	   for f in $(VPATTERNS); do \
	     echo '""'; sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $$f; echo ','; \
	   done; echo '0 };'; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/gen/vpatterns_data.o: $(BUILD)/gen/vpatterns_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The learned networks of the 10x10 variants: book/vnet-NAME.txt, built in as text after
# the variant's name.
VNETS := $(sort $(wildcard book/vnet-*.txt))
$(BUILD)/gen/vnets_data.c: FORCE
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/vnet-*.txt by the Makefile. */'; \
	   echo 'const char *const vnet_texts[] = {'; \
	   for f in $(VNETS); do \
	     n=$${f#book/vnet-}; echo "\"$${n%.txt}\","; \
	     echo '""'; sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $$f; echo ','; \
	   done; echo '0 };'; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/gen/vnets_data.o: $(BUILD)/gen/vnets_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The style of the HTML pages: book/report.css, built in as text.
$(BUILD)/gen/css_data.c: book/report.css
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/report.css by the Makefile. */'; \
	   echo 'const char report_css[] ='; \
	   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/gen/css_data.o: $(BUILD)/gen/css_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The pages of `pdnkit serve`: src/web/static, built in as text.
WEB_STATIC := src/web/static/index.html src/web/static/app.js src/web/static/app.css
$(BUILD)/gen/web_data.c: $(WEB_STATIC)
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from src/web/static by the Makefile. */'; \
	   for f in index.html:web_index_html app.js:web_app_js app.css:web_app_css; do \
	     echo "const char $${f#*:}[] ="; \
	     sed 's/\\/\\\\/g; s/"/\\"/g; s/?/\\?/g; s/^/"/; s/$$/\\n"/' src/web/static/$${f%%:*}; echo ';'; \
	   done; } > $@

$(BUILD)/gen/web_data.o: $(BUILD)/gen/web_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The opening book that ships with pdnkit: book/pdnkit.book (made by `make book`), built
# in as bytes; without the file, no default book.
SHIPPED_BOOK := $(wildcard book/pdnkit.book)
$(BUILD)/gen/book_data.c: $(SHIPPED_BOOK)
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/pdnkit.book by the Makefile. */'; \
	   echo '#include <stddef.h>'; \
	   echo 'const unsigned char pk_book_default_data[] = {'; \
	   if [ -n "$(SHIPPED_BOOK)" ]; then od -An -v -tu1 $(SHIPPED_BOOK) | sed 's/  */,/g; s/^,//; s/$$/,/'; else echo 0; fi; \
	   echo '};'; \
	   echo 'const size_t pk_book_default_size = $(if $(SHIPPED_BOOK),sizeof pk_book_default_data,0);'; } > $@

$(BUILD)/gen/book_data.o: $(BUILD)/gen/book_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The books of the other variants that ship with pdnkit: book/book-*.book (each holds its
# variant; made by `make vbooks`), built in as bytes.
VBOOKS := $(sort $(wildcard book/book-*.book))
$(BUILD)/gen/vbooks_data.c: FORCE
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from book/book-*.book by the Makefile. */'; \
	   echo '#include <stddef.h>'; \
	   i=0; for f in $(VBOOKS); do \
	     echo "static const unsigned char vbook_$$i[] = {"; od -An -v -tu1 $$f | sed 's/  */,/g; s/^,//; s/$$/,/'; echo '};'; \
	     i=$$((i + 1)); \
	   done; \
	   echo 'const unsigned char *const pk_vbooks_data[] = {'; \
	   i=0; for f in $(VBOOKS); do echo "vbook_$$i,"; i=$$((i + 1)); done; echo '0 };'; \
	   echo 'const size_t pk_vbooks_size[] = {'; \
	   i=0; for f in $(VBOOKS); do echo "sizeof vbook_$$i,"; i=$$((i + 1)); done; echo '0 };'; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/gen/vbooks_data.o: $(BUILD)/gen/vbooks_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Rebuild the shipped book: the master games of OCA 2.0 and tinsley.pdn (each game once:
# the copies of one game in both files are counted once by the store), their first 40
# plies, the moves played in two games or more. The same file on every machine. Then
# `make` builds it in. (The engine can grow a book itself too: pdnkit book expand.)
CORPORA ?= ../shared/corpora
BOOK_BUILD ?= --plies 40 --min-games 2
book: $(PROG)
	rm -f $(BUILD)/book.db
	./$(PROG) import --db $(BUILD)/book.db $(CORPORA)/OCA_2.0.pdn $(CORPORA)/tinsley.pdn
	./$(PROG) book build --db $(BUILD)/book.db $(BOOK_BUILD) -o book/pdnkit.book.new
	rm -f $(BUILD)/book.db
	mv book/pdnkit.book.new book/pdnkit.book
	$(MAKE) $(PROG)

# Rebuild the shipped International book: grown by the engine (drop-out expansion, 4,000
# positions searched to depth 16 on one thread: deterministic, about 30 minutes) from the
# start and from the 27 three-ply openings played twice or more in the International
# games of the corpora (corpora/decks/international-openings.pdn, their moves kept as
# path moves), then built in by `make`.
VBOOK_EXPAND ?= --openings corpora/decks/international-openings.pdn --positions 4000 --engine-options "--depth 16 --threads 1 --egdb none"
# The depth-8 labels of every second quiet position of the self-play games of seed 27,
# searched by the engine of the day (network on), for International's next network: a
# labelling of hours, interrupted after LABEL_MINUTES and kept (train --label-format
# ordered: 1.6 bytes a position) beside the games; each run goes on from the file, and
# the one that finishes it fits the network (-o $(BUILD)/vnet-seed27-d8.txt).
LABEL_MINUTES ?= 90
LABEL_GAMES   := corpora/selfplay/international-d6-seed27.pdn.zst
LABEL_FILE    := corpora/selfplay/international-d6-seed27.d8.lab.zst
labels: $(PROG)
	@mkdir -p $(BUILD)
	timeout --preserve-status -s INT $(LABEL_MINUTES)m ./$(PROG) train --variant international --net $(LABEL_GAMES) \
		--label-depth 8 --label-every 2 --lambda 0 --labelled-only --calm \
		--label-file $(LABEL_FILE) --label-format ordered -o $(BUILD)/vnet-seed27-d8.txt; \
	rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 130 ]

vbooks: $(PROG)
	./$(PROG) book expand --variant international $(VBOOK_EXPAND) --quiet -o book/book-international.book.new
	mv book/book-international.book.new book/book-international.book
	$(MAKE) $(PROG)

$(BUILD)/%.o: %.c $(wildcard src/*/*.h src/*/*.inc.c cmd/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(TEST_AUX) $(LIB) $(wildcard tests/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(TEST_AUX) $(LIB) $(LDFLAGS) $(LDLIBS) -ldl

tests: $(PROG) $(TEST_BIN) $(CB_SO) $(if $(WIN_HAVE),$(WIN_DLL) $(WIN_HOST)) $(BUILD)/tests/fake_engine $(BUILD)/tests/cdp $(BUILD)/tests/jsoncheck $(BUILD)/tests/netpoke $(BUILD)/tests/egdb_apart

# The engine as a shared library with the CheckerBoard interface (cmd/cb): the core
# compiled again as position-independent code.
PIC_OBJ   := $(SRC:%.c=$(BUILD)/pic/%.o) $(GEN_C:$(BUILD)/gen/%.c=$(BUILD)/pic/gen/%.o)
PIC_LIB   := $(BUILD)/libpdnkit-pic.a

$(BUILD)/pic/%.o: %.c $(wildcard src/*/*.h src/*/*.inc.c)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fno-lto -fPIC -c -o $@ $<

$(BUILD)/pic/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fno-lto -fPIC -c -o $@ $<

$(PIC_LIB): $(PIC_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(CB_SO): cmd/cb/cb_engine.c src/proto/cb_api.h $(PIC_LIB)
	$(CC) $(ALL_CFLAGS) -fno-lto -fPIC -shared -Wl,-soname,libpdnkit-cb.so -o $@ cmd/cb/cb_engine.c $(PIC_LIB) \
		$(LDFLAGS) $(LDLIBS)

cb: $(CB_SO)
	cp $(CB_SO) libpdnkit-cb.so

$(BUILD)/win/%.o: %.c $(wildcard src/*/*.h src/*/*.inc.c)
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c -o $@ $<

$(BUILD)/win/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c -o $@ $<

$(BUILD)/win/libpdnkit-win.a: $(WIN_OBJ)
	@rm -f $@
	x86_64-w64-mingw32-ar rcs $@ $^

$(WIN_DLL): cmd/cb/cb_engine.c src/proto/cb_api.h $(BUILD)/win/libpdnkit-win.a
	$(WIN_CC) $(WIN_CFLAGS) -shared -static -o $@ cmd/cb/cb_engine.c $(BUILD)/win/libpdnkit-win.a -lpthread

$(WIN_HOST): tests/cbwin_host.c src/proto/cb_api.h
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -static -o $@ tests/cbwin_host.c

cb-win: $(WIN_DLL)
	cp $(WIN_DLL) pdnkit-cb.dll

$(BUILD)/tests/fake_engine: tests/fake_engine.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/fake_engine.c $(LIB) $(LDFLAGS) $(LDLIBS)

# The browser driver of the serve tests (the DevTools protocol over a pipe).
$(BUILD)/tests/cdp: tests/cdp.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/cdp.c $(LDFLAGS)

# A hostile or scripted network client (slow requests, silent connections, DXP).
$(BUILD)/tests/netpoke: tests/netpoke.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/netpoke.c $(LDFLAGS)

# A strict JSON reader that refuses an object with the same key twice.
$(BUILD)/tests/jsoncheck: tests/jsoncheck.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/jsoncheck.c $(LDFLAGS)

$(BUILD)/tests/gen_games: tests/gen_games.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/gen_games.c $(LIB) $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/bench_naive: tests/bench_naive.c tests/naive.c tests/naive.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/bench_naive.c tests/naive.c

# Debian packages the build and the tests need (the tests check databases with the
# sqlite3 shell, the server with curl); installed only when missing.
deps:
	@if pkg-config --exists $(PKGS) 2>/dev/null && command -v $(CC) >/dev/null && command -v sqlite3 >/dev/null && command -v curl >/dev/null; then :; else \
		echo "installing build dependencies (libsqlite3-dev libzstd-dev libpopt-dev libmicrohttpd-dev pkg-config sqlite3 curl)"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			build-essential pkg-config libsqlite3-dev libzstd-dev libpopt-dev libmicrohttpd-dev sqlite3 curl; \
	fi

check: deps
	@$(MAKE) --no-print-directory tests
	@tests/run.sh $(BUILD)/tests ./pdnkit

# The endgame solver written apart from the builder (tests/egdb_apart.c, built as the unit
# tests are; test_egdb.sh runs it up to 4 pieces) over a built level: APART_DIR (default the
# databases' directory), APART_PIECES (default its largest), APART_SAMPLES a slice (10),
# APART_CAP positions a sample's graph (2000000; about 200 bytes each). Not in check.
APART_DIR     ?= $(or $(PDNKIT_EGDB),$(HOME)/.local/share/pdnkit/egdb)
APART_SAMPLES ?= 10
APART_CAP     ?= 2000000
egdb-apart: $(BUILD)/tests/egdb_apart
	$(BUILD)/tests/egdb_apart $(APART_DIR) $(if $(APART_PIECES),--pieces $(APART_PIECES)) \
		--samples $(APART_SAMPLES) --cap $(APART_CAP)

# The endgame databases of up to 5 pieces built through a real single-node Slurm started
# here (root; installs slurm-wlm and munge when missing; a few minutes): not in check.
slurm-check: pdnkit
	@PDNKIT=$$PWD/pdnkit PIECES=5 sh tests/slurm.sh

run: deps
	@$(MAKE) --no-print-directory pdnkit
	@tests/main-job.sh ./pdnkit

# Endgame databases up to EGDB_PIECES into $$PDNKIT_EGDB or the default directory
# (~/.local/share/pdnkit/egdb); resumable: run it again after an interruption.
EGDB_PIECES ?= 6
VEGDB_PIECES ?= 4
egdb: deps
	@$(MAKE) --no-print-directory pdnkit
	./pdnkit egdb build --pieces $(EGDB_PIECES) --threads $$(nproc 2>/dev/null || echo 2)
	./pdnkit egdb build --variant international --pieces $(VEGDB_PIECES)

bench: deps
	@$(MAKE) --no-print-directory pdnkit
	@tests/bench.sh ./pdnkit

SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The suites the sanitizer run leaves to `make check`: the engine's play, search and
# learning, the README's walk-through, the browser's report and the full-screen game,
# perft, the Windows library (not built with the sanitizers), the signals' checks. They
# read no outside input that the other suites do not (test_hostile gives every command
# hostile input under the sanitizers), and under the sanitizers they took most of CI's time.
# (Nor is the Windows library cross-built for it: its test is among them.)
# A sanitizer's finding exits with a status no command of pdnkit has (86 to 88): the
# checks that allow a failing command's 1 to 3 do not take it for an ordinary error.
SAN_RELEASE_ONLY = test_engine.sh test_learn.sh test_readme.sh test_report.sh test_perft.sh \
	test_cb_win.sh test_play.sh test_kill.sh test_scores.sh test_layers.sh test_turns.sh
sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build-san PROG=build-san/pdnkit NATIVE= WIN_HAVE= \
		CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" tests
	@ASAN_OPTIONS=detect_leaks=1:exitcode=86 LSAN_OPTIONS=exitcode=87 UBSAN_OPTIONS=exitcode=88:print_stacktrace=1 \
		TEST_RELEASE_ONLY="$(SAN_RELEASE_ONLY)" tests/run.sh build-san/tests build-san/pdnkit

install: $(PROG)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 pdnkit $(DESTDIR)$(PREFIX)/bin/pdnkit
	for f in $(filter %.1,$(MAN)); do install -m 644 $$f $(DESTDIR)$(PREFIX)/share/man/man1/; done
	for f in $(filter %.5,$(MAN)); do install -m 644 $$f $(DESTDIR)$(PREFIX)/share/man/man5/; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pdnkit
	for f in $(notdir $(MAN)); do rm -f $(DESTDIR)$(PREFIX)/share/man/man*/$$f; done

clean:
	rm -rf $(BUILD) build-san build-fuzz pdnkit libpdnkit-cb.so pdnkit-cb.dll

# Fuzzing the reader, replay and writer with libFuzzer under ASan and UBSan.
# FUZZ_TIME seconds (default 600); new inputs that add coverage go to tests/fuzz-corpus.
FUZZ_TIME ?= 600
FUZZ_CC   ?= clang
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined $(PKG_CFLAGS) -DPK_VERSION='"$(VERSION)"'
fuzz: deps $(GEN_C)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o build-fuzz/fuzz_pdn tests/fuzz_pdn.c $(SRC) \
		$(GEN_C) $(PKG_LIBS) -lpthread -lm
	@mkdir -p build-fuzz/new
	build-fuzz/fuzz_pdn -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 build-fuzz/new tests/fuzz-corpus

# The same for opening books (the decoder behind its checksums).
fuzz-book: deps $(GEN_C)
	@mkdir -p build-fuzz/new-book
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o build-fuzz/fuzz_book tests/fuzz_book.c $(SRC) \
		$(GEN_C) $(PKG_LIBS) -lpthread -lm
	build-fuzz/fuzz_book -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 build-fuzz/new-book tests/fuzz-book-corpus

# The same for endgame database files (header, block table, blocks, probes).
fuzz-egdb: deps $(GEN_C)
	@mkdir -p build-fuzz/new-egdb
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o build-fuzz/fuzz_egdb tests/fuzz_egdb.c $(SRC) \
		$(GEN_C) $(PKG_LIBS) -lpthread -lm
	build-fuzz/fuzz_egdb -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 build-fuzz/new-egdb tests/fuzz-egdb-corpus

# Minimise what fuzzing found into the corpus kept in the repository.
fuzz-merge:
	@mkdir -p build-fuzz/merged
	build-fuzz/fuzz_pdn -merge=1 -max_len=65536 build-fuzz/merged tests/fuzz-corpus build-fuzz/new
	rm -rf tests/fuzz-corpus && mv build-fuzz/merged tests/fuzz-corpus

fuzz-book-merge:
	@mkdir -p build-fuzz/merged-book
	build-fuzz/fuzz_book -merge=1 -max_len=65536 build-fuzz/merged-book tests/fuzz-book-corpus build-fuzz/new-book
	rm -rf tests/fuzz-book-corpus && mv build-fuzz/merged-book tests/fuzz-book-corpus
