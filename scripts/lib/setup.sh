# Shared set-up for scripts/freedom-keys and scripts/test: find Swift, install the C libraries.
# Sourced, not run. Everything it prints goes to stderr: stdout belongs to the tool's results.

# The Debian packages the package links against, and what the tests call.
FK_APT_PACKAGES=(pkg-config libsecp256k1-dev libsodium-dev libssl-dev)
# Intel's multi-buffer SHA-512 (x86-64 only): batch PBKDF2 for `recover`, opened at run time.
if [ "$(uname -m)" = x86_64 ]; then FK_APT_PACKAGES+=(libipsec-mb-dev); fi

fk_say() { printf 'freedom-keys setup: %s\n' "$*" >&2; }

fk_find_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
      if [ -x "$dir/swift" ]; then export PATH="$dir:$PATH"; break; fi
    done
  fi
  if ! command -v swift >/dev/null 2>&1; then
    fk_say "no Swift toolchain found: install Swift 6 (https://www.swift.org/install/linux/) and put it on PATH"
    exit 1
  fi
}

# Installs any of the given Debian packages that are missing (as root), or says what to install.
fk_apt_ensure() {
  local missing=()
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    fk_say "missing Debian packages: ${missing[*]}"
    fk_say "install them with: sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
  fk_say "installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  local log
  log="$(mktemp)"
  apt-get update -qq >"$log" 2>&1 || fk_say "apt-get update failed; trying the install anyway"
  # apt's progress is noise on success; on failure it is the explanation.
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    fk_say "apt-get could not install ${missing[*]} (see above)"
    exit 1
  fi
  rm -f "$log"
}

fk_setup() {
  fk_find_swift
  fk_apt_ensure "${FK_APT_PACKAGES[@]}"
}
