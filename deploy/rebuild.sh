#!/bin/sh
# Builds the site anew into a release of its own and publishes it (docs/deploy.md): run daily by
# studio-rebuild.timer, because a page does not change by itself when a banner's last day passes.
# No --strict here: the content was checked when it was published, and on the day after a
# banner's last day "validate" warns about that very banner, which this build leaves out.
#
#   rebuild.sh [WWW]      (default /srv/studio/www; the content is the one beside this script)
set -eu
app=$(cd "$(dirname "$0")/.." && pwd -P)
www=${1:-/srv/studio/www}
release="$www/releases/$(date -u +%Y-%m-%dT%H%M%SZ)-$$"
node "$app/cli/bin.js" build --content "$app/content" --out "$release"
exec "$app/deploy/publish.sh" "$release"
