# Shared set-up for the scripts: find Swift, install the Debian packages they need. Sourced, not
# run. Everything it prints goes to stderr: stdout belongs to the tool's results.

# What the package builds against (pkg-config finds the three C libraries).
FK_BUILD_PACKAGES=(pkg-config libsecp256k1-dev libsodium-dev libssl-dev)
# What the tests run besides the built binary: ssh-keygen reads the Radicle keys we write;
# chattr (e2fsprogs) makes a directory read-only for root (without it those tests are skipped);
# man (man-db) renders the man pages; bash, zsh and fish load the completion scripts.
# strace fails one system call of a search (its found answer must still arrive); PoCL is an
# OpenCL device on the CPU, so the OpenCL engine's kernels run against the CPU code everywhere
# (ocl-icd's loader is what the tool dlopens; its headers check our OpenCL declarations).
# GNU time measures a token search's peak memory (a hundred million candidates, never held).
FK_TEST_PACKAGES=(openssh-client e2fsprogs man-db zsh fish unicode-data bzip2 strace time
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers pocl-opencl-icd)
# Intel's multi-buffer SHA-512 (x86-64 only): batch PBKDF2 for `recover`, opened at run time.
if [ "$(uname -m)" = x86_64 ]; then FK_BUILD_PACKAGES+=(libipsec-mb-dev); fi

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

# The given Debian packages that are not installed, one a line.
fk_apt_missing() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      printf '%s\n' "$pkg"
  done
}

# Installs, in one apt-get run, every given Debian package that is missing (as root); as another
# user names them all in the one command to run as root, and exits.
fk_apt_ensure() {
  local missing=()
  mapfile -t missing < <(fk_apt_missing "$@")
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    fk_say "missing Debian packages: ${missing[*]}"
    fk_say "install them as root, then run this again: apt-get install -y ${missing[*]}"
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

# Finds Swift and installs the build packages plus any packages given, all in one round.
fk_setup() {
  fk_find_swift
  fk_apt_ensure "${FK_BUILD_PACKAGES[@]}" "$@"
}
