#!/bin/sh
# Makes a copy of the site visitors see, in one step (docs/deploy.md, "Publishing"):
#
#   publish.sh WWW/releases/NAME          (on the server: /srv/studio/www/releases/NAME)
#
# WWW holds releases/ (one folder per published site) and current,
# a link to one of them, which nginx or "content serve" serves. The link is replaced with one
# rename (ln -sfn makes the new link beside it, mv -T renames it over the old one), so a
# visitor gets the old site or the new one, never half of each. Then a running
# studio-serve.service is restarted to take the new site's form rules (Caddy holds requests
# meanwhile), and all but the newest three releases are removed (only folders "content build"
# wrote, which carry its mark .studio-site.json).
set -eu

fail() {
  echo "publish: $1" >&2
  exit 2
}

[ $# -eq 1 ] || fail "usage: publish.sh WWW/releases/NAME"
[ -d "$1" ] && [ ! -L "$1" ] || fail "$1 is not a folder"
release=$(cd "$1" && pwd -P)
releases=$(dirname "$release")
[ "$(basename "$releases")" = releases ] || fail "$1 is not a folder directly inside a folder named releases"
www=$(dirname "$releases")
[ -f "$release/.studio-site.json" ] || fail "$1 is not a site \"content build\" wrote (it has no .studio-site.json)"
[ -f "$release/index.html" ] || fail "$1 has no index.html: not a whole site"
name=$(basename "$release")
[ -e "$www/current" ] && [ ! -L "$www/current" ] && fail "$www/current is not a link: move it away first"

# The switch: a new link beside the old one, renamed over it (rename(2) is atomic).
ln -sfn "releases/$name" "$www/.current.$$"
mv -T "$www/.current.$$" "$www/current"
echo "publish: $www/current -> releases/$name"

# A running server takes the new site's form rules (the pages it serves already follow the link).
# As the studio user (from CI), through the one sudo rule docs/deploy.md sets up.
if [ -z "${STUDIO_NO_RESTART:-}" ] && command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet studio-serve.service 2>/dev/null; then
  as_root=
  [ "$(id -u)" -eq 0 ] || as_root="sudo -n"
  $as_root systemctl try-restart studio-serve.service ||
    echo "publish: could not restart studio-serve.service; run: sudo systemctl restart studio-serve" >&2
fi

# The three made last stay (by ctime: rsync -a keeps the build's mtime), and the current one always, so the one before can be brought back:
#   ln -sfn releases/OLDER WWW/.current.x && mv -T WWW/.current.x WWW/current
keep=${STUDIO_KEEP_RELEASES:-3}
# shellcheck disable=SC2012 # release names are ours: no newlines
ls -1tc "$releases" | tail -n +"$((keep + 1))" | while IFS= read -r old; do
  [ "$old" = "$name" ] && continue
  [ -f "$releases/$old/.studio-site.json" ] || continue
  rm -rf -- "${releases:?}/$old"
done
