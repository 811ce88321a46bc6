# The release binary that gets installed (scripts/install) and packaged (scripts/package), and the
# files that go with it. Sourced after setup.sh, not run. Prints only to stderr.
#
# The binary links the Swift runtime, FoundationEssentials, libstdc++ and libgcc statically, so
# it runs where no toolchain is: its only shared libraries are libc, libsecp256k1, libsodium and
# libcrypto (libssl). It has no RUNPATH, so nothing is looked up next to it.

# Built apart from .build/release (other flags would rebuild that one from scratch each time).
FK_RELEASE_SCRATCH=".build/package"
# Needed at build time only: libstdc++.a (libstdc++-12-dev), strip (binutils).
FK_RELEASE_PACKAGES=(libstdc++-12-dev binutils)

# The toolchain's own lld, to pack the ~37,000 relative relocations of a static-stdlib
# executable as DT_RELR (glibc ≥ 2.36): the dynamic loader reads a few KB instead of 0.9 MB
# of .rela.dyn at every start (about 0.8 MB less peak RSS; see the benchmark's whole process).
FK_RELEASE_LINK_FLAGS=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)

# Builds the stripped static-stdlib binary into "$FK_RELEASE_SCRATCH/stage/freedom-keys" and sets
# FK_RELEASE_BINARY to its path. Run from the package root.
fk_release_build() {
  local scratch="$FK_RELEASE_SCRATCH"
  local libstdcxx
  libstdcxx="$(gcc -print-file-name=libstdc++.a 2>/dev/null || true)"
  if [ ! -f "$libstdcxx" ]; then
    fk_say "libstdc++.a not found: install libstdc++-12-dev"
    exit 1
  fi
  # The Swift driver asks for -lstdc++; a directory searched first that holds only the static
  # archive makes the linker take it instead of libstdc++.so.
  mkdir -p "$scratch/static-libs" "$scratch/stage"
  ln -sf "$libstdcxx" "$scratch/static-libs/libstdc++.a"
  [ -x "$scratch/release/freedom-keys" ] ||
    fk_say "building the static release binary ($scratch/release/freedom-keys); the first build takes a few minutes"
  if ! swift build --quiet -c release --product freedom-keys --scratch-path "$scratch" \
    --static-swift-stdlib --disable-local-rpath \
    -Xlinker -L"$PWD/$scratch/static-libs" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
    -Xlinker -z -Xlinker now "${FK_RELEASE_LINK_FLAGS[@]}" >&2; then
    fk_say "the release build failed (see above)"
    exit 1
  fi
  FK_RELEASE_BINARY="$scratch/stage/freedom-keys"
  # As dh_strip does for executables: no symbols, no .comment or .note sections.
  strip --remove-section=.comment --remove-section=.note -o "$FK_RELEASE_BINARY" \
    "$scratch/release/freedom-keys"
  chmod 0755 "$FK_RELEASE_BINARY"
  fk_release_check_libraries "$FK_RELEASE_BINARY"
}

# Fails unless the binary needs exactly the shared libraries it is meant to need.
fk_release_check_libraries() {
  local needed
  needed="$(LC_ALL=C readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
    grep -v '^ld-linux' | sort | tr '\n' ' ')"
  local want="libc.so.6 libcrypto.so.3 libm.so.6 libsecp256k1.so.1 libsodium.so.23 "
  if [ "$needed" != "$want" ]; then
    fk_say "the release binary needs other shared libraries than expected: $needed(wanted: $want)"
    exit 1
  fi
  if LC_ALL=C readelf -d "$1" | grep -q '(RPATH)\|(RUNPATH)'; then
    fk_say "the release binary has a RUNPATH; it must look up libraries only where the system does"
    exit 1
  fi
}

# Writes the man pages (when the binary can generate them) into $1, gzip-compressed if $2 is
# "gzip". Prints how many pages it wrote.
fk_release_man_pages() {
  local dir="$1" compress="${2:-}" tmp
  tmp="$(mktemp -d)"
  mkdir -p "$dir"
  if "$FK_RELEASE_BINARY" --generate-manual "$tmp" >/dev/null 2>&1 && [ -f "$tmp/freedom-keys.1" ]; then
    local page
    for page in "$tmp"/*.1; do
      if [ "$compress" = gzip ]; then
        gzip -9n <"$page" >"$dir/$(basename "$page").gz"
      else
        cp "$page" "$dir/"
      fi
      chmod 0644 "$dir/$(basename "$page")"*
    done
    ls "$tmp"/*.1 | wc -l
  else
    fk_say "this freedom-keys cannot generate man pages (--generate-manual); installing none"
    echo 0
  fi
  rm -rf "$tmp"
}

# Writes the completion script for shell $1 to file $2, when the binary can generate it.
fk_release_completion() {
  local shell="$1" file="$2" script
  if script="$("$FK_RELEASE_BINARY" --generate-completion-script "$shell" 2>/dev/null)" &&
    [ -n "$script" ]; then
    mkdir -p "$(dirname "$file")"
    printf '%s\n' "$script" >"$file"
    chmod 0644 "$file"
  else
    fk_say "this freedom-keys cannot generate a $shell completion script; installing none"
    return 1
  fi
}
