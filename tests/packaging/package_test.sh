#!/usr/bin/env bash
# Installs Tessera the way a user would, from the packages CPack builds (packaging/), into a
# scratch root, and asks the real loader for it through the installed manifest only:
#   DEB  unpacked with dpkg-deb -x (usr/lib, usr/share/vulkan/icd.d)
#   TGZ  the relocatable tarball, unpacked into a directory of its own
# For each, vulkaninfo --summary with VK_DRIVER_FILES naming the unpacked manifest must list the
# Tessera device. Usage: package_test.sh BUILD_DIR
set -euo pipefail
build=$1
scratch=$(mktemp -d /tmp/tessera-package-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

if ! cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$scratch/out" >"$scratch/cpack.log" 2>&1; then
  cat "$scratch/cpack.log"
  echo "FAIL: cpack did not build the packages"
  exit 1
fi

# $1: what was unpacked; $2: its root. The manifest must name a library that is in the package.
check() {
  local what=$1 root=$2 manifest
  manifest=$(find "$root" -path '*/share/vulkan/icd.d/tessera_icd.json')
  [ -n "$manifest" ] || { echo "FAIL: $what has no share/vulkan/icd.d/tessera_icd.json"; find "$root"; exit 1; }
  local library
  library=$(sed -n 's/.*"library_path": *"\(.*\)".*/\1/p' "$manifest")
  [ -f "$(dirname "$manifest")/$library" ] || { echo "FAIL: $what: $library (from the manifest) is missing"; exit 1; }
  # Only the unpacked driver: no implicit layers (Mesa's device-select) between.
  if ! VK_DRIVER_FILES=$manifest VK_LOADER_LAYERS_DISABLE='~implicit~' vulkaninfo --summary >"$scratch/summary" 2>&1 ||
     ! grep -q 'driverName *= Tessera' "$scratch/summary"; then
    cat "$scratch/summary"
    echo "FAIL: vulkaninfo did not find Tessera through the $what manifest"
    exit 1
  fi
  echo "ok: $what ($manifest -> $library)"
}

deb=$(ls "$scratch"/out/*.deb)
dpkg-deb -x "$deb" "$scratch/deb-root"
check ".deb" "$scratch/deb-root"
[ -f "$scratch/deb-root/usr/share/vulkan/icd.d/tessera_icd.json" ] || { echo "FAIL: the .deb installs outside /usr"; exit 1; }
echo "deb: $(dpkg-deb -f "$deb" Package Version Depends | tr '\n' ' ')"

tarball=$(ls "$scratch"/out/*.tar.gz)
mkdir "$scratch/tgz-root"
tar -xzf "$tarball" -C "$scratch/tgz-root"
check "tarball" "$scratch/tgz-root"
# Relocatable: lib/ and share/ right under the tarball's one top directory.
[ -f "$scratch"/tgz-root/*/share/vulkan/icd.d/tessera_icd.json ] || { echo "FAIL: the tarball is not prefix-free"; exit 1; }
