#!/usr/bin/env bash
# Runs CMD inside a throwaway, unlocked gnome-keyring on a private session bus (DESIGN §6), so the
# credential tests exercise a real Secret Service without touching the user's own keyring.
#   usage: scripts/with-keyring.sh CMD [ARGS...]
# Exports TM_KEYRING=1 when the keyring is ready; TM_KEYRING_PASSWORD lets tests unlock it again after
# locking it. Without the tools it says so on stderr and runs CMD without a keyring (tests then skip,
# or fail under CI).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi

note() { echo "with-keyring: $*" >&2; }

# Only this run's own setup may vouch for a keyring; never inherit the claim from an outer run.
unset TM_KEYRING TM_KEYRING_PASSWORD

if [ "${TM_WITH_KEYRING_INNER:-}" != "1" ]; then
  for tool in dbus-run-session gnome-keyring-daemon dbus-send mktemp; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      note "$tool not found (apt-get install -y --no-install-recommends dbus gnome-keyring libsecret-tools); running without a keyring"
      exec "$@"
    fi
  done
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/tm-keyring.XXXXXX")"
  # Not exec: the throwaway directory must be removed once the bus (and the daemon with it) is gone.
  trap 'rm -rf "$tmp"' EXIT
  set +e
  TM_WITH_KEYRING_INNER=1 TM_WITH_KEYRING_TMP="$tmp" dbus-run-session -- "${BASH:-bash}" "$0" "$@"
  rc=$?
  set -e
  exit "$rc"
fi

# ---- inside dbus-run-session: a private session bus that dies with CMD
tmp="${TM_WITH_KEYRING_TMP:?}"
unset TM_WITH_KEYRING_INNER TM_WITH_KEYRING_TMP
mkdir -p "$tmp/data" "$tmp/run"
chmod 700 "$tmp/run"
# Keyrings live under XDG_DATA_HOME. The control socket lives under XDG_RUNTIME_DIR (or GNOME_KEYRING_CONTROL):
# left pointing at a desktop session's, --unlock would talk to the user's real daemon instead of ours.
export XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run"
unset GNOME_KEYRING_CONTROL
# No display: the daemon must never try to prompt (a prompt would hang a headless run).
unset DISPLAY WAYLAND_DISPLAY

# Prints the reply, or nothing when the call failed (no pipes into grep -q: with pipefail, an early grep
# exit can fail the pipeline through SIGPIPE even on a match).
bus_call() {
  dbus-send --session --print-reply=literal --reply-timeout=1000 "$@" 2>/dev/null || true
}

password="tm-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
# Trap 1 of DESIGN §6: this returns before the daemon owns org.freedesktop.secrets.
if ! printf '%s' "$password" | gnome-keyring-daemon --unlock --components=secrets >/dev/null; then
  note "gnome-keyring-daemon --unlock failed"
fi

owned=0
for _ in $(seq 1 50); do
  reply="$(bus_call --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \
    string:org.freedesktop.secrets)"
  case "$reply" in *true*) owned=1 && break ;; esac
  sleep 0.1
done

# Trap 2: --unlock exits 0 even when the password was wrong, so ask the collection itself.
unlocked=0
if [ "$owned" = "1" ]; then
  for _ in $(seq 1 20); do
    reply="$(bus_call --dest=org.freedesktop.secrets /org/freedesktop/secrets/aliases/default \
      org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection string:Locked)"
    case "$reply" in *"boolean false"*) unlocked=1 && break ;; esac
    sleep 0.1
  done
fi

if [ "$unlocked" = "1" ]; then
  export TM_KEYRING=1 TM_KEYRING_PASSWORD="$password"
else
  if [ "$owned" = "1" ]; then
    note "the default keyring collection did not report Locked=false; running without a keyring"
  else
    note "gnome-keyring-daemon did not take org.freedesktop.secrets within 5 s; running without a keyring"
  fi
fi
exec "$@"
