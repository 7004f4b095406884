#!/bin/sh
# Compiles the translation catalogues (locale/<ll_CC>/LC_MESSAGES/*.po, committed) into
# the .mo files Django reads (never committed), with the check `manage.py
# compilemessages` runs (msgfmt --check-format), and only those older than their .po, so
# `make run` and `make test` pay nothing once they are built. Needs GNU gettext's msgfmt
# (`apt-get install gettext`; .ci/run and the Dockerfile install it). docs/i18n.md.
set -eu
cd "$(dirname "$0")/.."
for po in locale/*/LC_MESSAGES/*.po; do
  [ -e "$po" ] || continue
  mo="${po%.po}.mo"
  if [ ! -e "$mo" ] || [ "$po" -nt "$mo" ]; then
    if ! command -v msgfmt >/dev/null 2>&1; then
      echo "msgfmt is missing: install gettext (apt-get install gettext) to compile $po" >&2
      exit 1
    fi
    msgfmt --check-format -o "$mo" "$po"
  fi
done
