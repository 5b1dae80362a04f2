# make install: the binary, the man page, bash and zsh completion, the
# systemd service and timer for a nightly collect, the cron example
# (docs/site.md). GNU conventions: PREFIX, DESTDIR, and each folder on its
# own; `make uninstall` removes exactly what install put there, and the
# folders that leaves empty (not PREFIX itself, nor, without DESTDIR, the
# folders every system has: bin, lib, share, share/man/man1, share/doc).
# The nightly collect runs as CAPPLAN_USER [capplan] with its database in
# STATEDIR [/var/lib/capplan]: install run as root without DESTDIR creates
# both when missing (a system user, no login, home STATEDIR, mode 750);
# otherwise it says how. uninstall keeps them (the database is the site's)
# and says how to remove them.
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage
#   make uninstall PREFIX=/usr/local
# make deb: the Debian package (debian/), built by dpkg-buildpackage -us -uc
# into build/deb/ (needs dpkg-dev, debhelper, fakeroot; lintian checks it).
PREFIX        ?= /usr/local
BINDIR        ?= $(PREFIX)/bin
MANDIR        ?= $(PREFIX)/share/man
DOCDIR        ?= $(PREFIX)/share/doc/capplan
BASHCOMPDIR   ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR    ?= $(PREFIX)/share/zsh/site-functions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
INSTALL       ?= install
# the binary to install (the tests install their sanitizer build)
INSTALL_BIN   ?= capplan
CAPPLAN_USER  ?= capplan
STATEDIR      ?= /var/lib/capplan

INSTALLED = $(BINDIR)/capplan $(MANDIR)/man1/capplan.1 $(BASHCOMPDIR)/capplan \
            $(ZSHCOMPDIR)/_capplan $(SYSTEMDUNITDIR)/capplan-collect.service \
            $(SYSTEMDUNITDIR)/capplan-collect.timer $(DOCDIR)/cron.d-capplan

.PHONY: install uninstall deb
install: $(INSTALL_BIN)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
	    $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(INSTALL_BIN) $(DESTDIR)$(BINDIR)/capplan
	$(INSTALL) -m 644 docs/capplan.1 $(DESTDIR)$(MANDIR)/man1/capplan.1
	$(INSTALL) -m 644 contrib/completions/capplan.bash $(DESTDIR)$(BASHCOMPDIR)/capplan
	$(INSTALL) -m 644 contrib/completions/_capplan $(DESTDIR)$(ZSHCOMPDIR)/_capplan
	sed 's|@BINDIR@|$(BINDIR)|g' contrib/systemd/capplan-collect.service \
	    >$(DESTDIR)$(SYSTEMDUNITDIR)/capplan-collect.service
	$(INSTALL) -m 644 contrib/systemd/capplan-collect.timer $(DESTDIR)$(SYSTEMDUNITDIR)/
	sed 's| capplan --db | $(BINDIR)/capplan --db |g' contrib/cron/capplan \
	    >$(DESTDIR)$(DOCDIR)/cron.d-capplan
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/capplan-collect.service $(DESTDIR)$(DOCDIR)/cron.d-capplan
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then \
	    if ! getent passwd $(CAPPLAN_USER) >/dev/null; then \
	        useradd --system --user-group --home-dir $(STATEDIR) --no-create-home \
	            --shell /usr/sbin/nologin --comment "capplan nightly collect" $(CAPPLAN_USER) && \
	        echo "make install: created the system user $(CAPPLAN_USER)"; \
	    fi; \
	    if [ ! -d $(STATEDIR) ]; then \
	        $(INSTALL) -d -o $(CAPPLAN_USER) -g $$(id -gn $(CAPPLAN_USER)) -m 750 $(STATEDIR) && \
	        echo "make install: created $(STATEDIR), owned by $(CAPPLAN_USER)"; \
	    fi; \
	else \
	    echo "make install: the nightly collect runs as user $(CAPPLAN_USER) in $(STATEDIR); as root:"; \
	    echo "  useradd --system --user-group --home-dir $(STATEDIR) --shell /usr/sbin/nologin $(CAPPLAN_USER)"; \
	    echo "  install -d -o $(CAPPLAN_USER) -g $(CAPPLAN_USER) -m 750 $(STATEDIR)"; \
	fi

# the folders install writes into, deepest first
INSTALL_DIRS = $(DOCDIR) $(SYSTEMDUNITDIR) $(ZSHCOMPDIR) $(BASHCOMPDIR) $(MANDIR)/man1 $(BINDIR)
# without DESTDIR, folders a system has whether or not capplan was there
KEEP_DIRS = $(PREFIX) $(PREFIX)/bin $(PREFIX)/lib $(PREFIX)/share $(PREFIX)/share/man \
            $(PREFIX)/share/man/man1 $(PREFIX)/share/doc

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@for d in $(INSTALL_DIRS); do \
	    while [ "$$d" != "$(PREFIX)" ] && [ "$$d" != / ] && [ "$$d" != . ]; do \
	        if [ -z "$(DESTDIR)" ]; then \
	            case " $(KEEP_DIRS) " in *" $$d "*) break ;; esac; \
	        fi; \
	        rmdir "$(DESTDIR)$$d" 2>/dev/null || break; \
	        d=$$(dirname "$$d"); \
	    done; \
	done
	@if [ -n "$(DESTDIR)" ]; then \
	    d="$(PREFIX)"; \
	    while [ "$$d" != / ] && rmdir "$(DESTDIR)$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	fi
	@if [ -z "$(DESTDIR)" ] && { getent passwd $(CAPPLAN_USER) >/dev/null || [ -d $(STATEDIR) ]; }; then \
	    echo "make uninstall: kept the user $(CAPPLAN_USER) and $(STATEDIR) (the database); to remove them:"; \
	    echo "  userdel $(CAPPLAN_USER); rm -r $(STATEDIR)"; \
	fi

# The package is built from a copy of the checkout (git archive when in a
# git work tree, so that nothing untracked goes in) under build/deb.
deb:
	rm -rf build/deb && mkdir -p build/deb/src
	if git rev-parse --git-dir >/dev/null 2>&1; then \
	    git ls-files -z -c -o --exclude-standard | xargs -0 tar -cf - | tar -xf - -C build/deb/src; \
	else \
	    tar -cf - --exclude=./build --exclude=./capplan --exclude='./*.db*' . | tar -xf - -C build/deb/src; \
	fi
	cd build/deb/src && dpkg-buildpackage -us -uc
	ls build/deb/*.deb
