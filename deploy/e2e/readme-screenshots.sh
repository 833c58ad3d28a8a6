#!/bin/sh
# Takes the README's screenshots of the payment page and the console again, from a real browser run: PagesIT with
# -Dpages.readme-screenshots=true writes docs/screenshots/<page>-360.png and <page>-desktop.png (1280 x 800) beside its
# usual test artifacts (deploy/e2e/target/pages/). Needs what PagesIT needs (Chromium at /usr/bin/chromium, the modules
# installed: ./mvnw -B -pl deploy/e2e -am install -DskipTests). Extra arguments go to Maven (e.g. -o).
# On a shared machine, take the end-to-end lock first: flock /work/e2e.lock deploy/e2e/readme-screenshots.sh -o
set -eu
cd "$(dirname "$0")/../.."
exec ./mvnw -B "$@" -pl deploy/e2e verify -Dit.test=PagesIT -Dpages.readme-screenshots=true -Dsurefire.failIfNoSpecifiedTests=false
