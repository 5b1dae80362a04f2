# make install: the binary, the man page, bash and zsh completion, the
# systemd service and timer for a nightly collect, the cron example
# (docs/site.md). GNU conventions: PREFIX, DESTDIR, and each folder on its
# own; `make uninstall` removes exactly what install put there.
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
	sed 's|^\(.* capplan \)capplan |\1$(BINDIR)/capplan |' contrib/cron/capplan \
	    >$(DESTDIR)$(DOCDIR)/cron.d-capplan
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/capplan-collect.service $(DESTDIR)$(DOCDIR)/cron.d-capplan

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

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
