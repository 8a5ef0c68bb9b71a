#!/bin/sh
# Makes a copy of the site visitors see, in one step (docs/deploy.md, "Publishing"):
#
#   publish.sh WWW/releases/NAME          (on the server: /srv/studio/www/releases/NAME)
#   publish.sh --restart-owed WWW         (as root: the restart a publish left owed; studio-rebuild.service)
#
# WWW holds releases/ (one folder per published site) and current, a link to one of them, which
# nginx or "content serve" serves. The link is replaced with one rename (ln -sfn makes the new link
# beside it, mv -T renames it over the old one), so a visitor gets the old site or the new one,
# never half of each. A running "content serve" follows the link by itself (pages, course options,
# texts): it is restarted only when what it reads once at start changed (the form's address, the
# languages, e-mail to the studio, the retention period: deploy/restart-needed.mjs), and the script
# says so. The restart refuses no request: studio-serve.socket keeps the listening socket open, and
# requests wait in it for the new process. Then all but the newest three releases are removed (only
# folders "content build" wrote, which carry its mark .studio-site.json).
set -eu

fail() {
  echo "publish: $1" >&2
  exit 2
}

# Restarts studio-serve.service if it runs, and forgets the restart owed ($1) once it is done.
# As the studio user (from CI) through the one sudo rule docs/deploy.md sets up; as root directly.
# Where systemd does not run it (a container), STUDIO_RESTART_COMMAND is how the machine restarts
# "content serve" (e.g. supervisorctl restart studio-serve): one that fails stays owed.
restart_serve() {
  if ! command -v systemctl >/dev/null 2>&1 || ! systemctl is-active --quiet studio-serve.service 2>/dev/null; then
    if [ -n "${STUDIO_RESTART_COMMAND:-}" ]; then
      if sh -c "$STUDIO_RESTART_COMMAND"; then
        rm -f -- "$1"
        echo "publish: restarted content serve with: $STUDIO_RESTART_COMMAND"
      else
        echo "publish: the restart failed ($STUDIO_RESTART_COMMAND); it stays owed in $1: the next publish tries again" >&2
      fi
      return 0
    fi
    echo "publish: studio-serve.service is not running here: a \"content serve\" started otherwise must be restarted by hand (or give STUDIO_RESTART_COMMAND)"
    rm -f -- "$1"
    return 0
  fi
  as_root=
  [ "$(id -u)" -eq 0 ] || as_root="sudo -n"
  if $as_root systemctl try-restart studio-serve.service; then
    rm -f -- "$1"
    echo "publish: restarted studio-serve.service (its socket stayed open: requests of that moment waited for the new process)"
  else
    echo "publish: could not restart studio-serve.service; run: systemctl restart studio-serve (the next publish tries again)" >&2
  fi
}

if [ $# -eq 2 ] && [ "$1" = --restart-owed ]; then
  owed="$2/.serve-restart"
  [ -e "$owed" ] || [ -L "$owed" ] || exit 0
  # Run as root on a folder the studio user writes: only a file publish.sh wrote is read, never what a link points at,
  # also one put in its place after this check (dd opens it with O_NOFOLLOW; nonblock: a fifo does not hold it up).
  [ -f "$owed" ] && [ ! -L "$owed" ] || fail "$owed is not a plain file: left alone"
  said=$(dd if="$owed" iflag=nofollow,nonblock bs=4096 count=1 status=none) || fail "$owed is not a plain file: left alone"
  echo "publish: content serve restarts to use:"
  printf '%s\n' "$said" | tr -d '\000-\010\013-\037\177' | sed 's/^/publish:   /'
  restart_serve "$owed"
  exit 0
fi

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
here=$(cd "$(dirname "$0")" && pwd -P)
before=
[ -L "$www/current" ] && before=$(cd "$www/current" 2>/dev/null && pwd -P) || before=

# The switch: a new link beside the old one, renamed over it (rename(2) is atomic).
ln -sfn "releases/$name" "$www/.current.$$"
mv -T "$www/.current.$$" "$www/current"
echo "publish: $www/current -> releases/$name"

# What a running server reads only when it starts, compared with the site online before. A restart
# owed is written down ($owed) until it is done: one that failed is tried again by the next publish.
owed="$www/.serve-restart"
changes=
if [ -z "$before" ]; then
  changes="the first site published here"
elif [ "$before" != "$release" ] && ! cmp -s "$before/.studio/enquiry.json" "$release/.studio/enquiry.json"; then
  if command -v node >/dev/null 2>&1; then
    changes=$(node "$here/restart-needed.mjs" "$before" "$release") || changes="the form rules could not be compared (deploy/restart-needed.mjs failed)"
  else
    changes="the form rules could not be compared (no node)"
  fi
fi
[ -z "$changes" ] || printf '%s\n' "$changes" >>"$owed"
if [ ! -e "$owed" ]; then
  echo "publish: content serve takes the new site as it is: no restart"
else
  echo "publish: content serve must restart to use:"
  sed 's/^/publish:   /' "$owed"
  if [ -n "${STUDIO_NO_RESTART:-}" ]; then
    # studio-rebuild.service: its sandbox cannot restart a service; its ExecStartPost (as root) does.
    echo "publish: the restart is left to publish.sh --restart-owed (STUDIO_NO_RESTART is set): $owed"
  else
    restart_serve "$owed"
  fi
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
