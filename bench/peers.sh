#!/usr/bin/env bash
# bench/peers.sh [N ...] — the side-by-side benchmark (../shared/peers/run.sh: Hugo, Eleventy, ours) like for like.
# Our site draws a share card per page by default (site.yaml `shareCards`), no other peer draws any, and the shared
# adapter copies the shipped site.yaml: this runs a copy of ../shared/peers whose adapter turns the cards off, and
# nothing else. The shared folder is left as it is. Run ../shared/peers/setup.sh once per machine first.
#   env: as run.sh (PEERS, RUNS, QUIET_WAIT, WORK, SITES); default PEERS="hugo eleventy ours". PEERS_DIR: the shared
#   benchmark's folder, when the project is not checked out beside ../shared (a worktree elsewhere).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=${PEERS_DIR:-$root/../shared/peers}
[ -x "$peers/run.sh" ] || { echo "bench/peers.sh: no run.sh in $peers; set PEERS_DIR to the shared benchmark's folder" >&2; exit 2; }
copy=$(mktemp -d "${TMPDIR:-/tmp}/studio-peers.XXXXXX")
trap 'rm -rf "$copy"' EXIT
cp -r "$peers/." "$copy/"
node -e '
const fs = require("node:fs");
const file = process.argv[1];
const line = "write(\x27site.yaml\x27, \x27site\x27, s);";
const text = fs.readFileSync(file, "utf8");
if (!text.includes(line)) { console.error("bench/peers.sh: the shared adapter changed; adapt this script"); process.exit(2); }
fs.writeFileSync(file, text.replace(line, "s.shareCards = false; // like for like: no other peer draws share cards\n" + line));
' "$copy/adapters/ours.mjs"
# Ours runs on the project's Node (node_modules/.bin/node, as under npm), and cold: run.sh removes its cache from
# node_modules/.cache, so a STUDIO_CACHE_DIR set elsewhere is not passed on.
[ -x "$root/node_modules/.bin/node" ] && PATH="$root/node_modules/.bin:$PATH"
unset STUDIO_CACHE_DIR
OURS=${OURS:-$root} PEERS=${PEERS:-hugo eleventy ours} "$copy/run.sh" "$@"
