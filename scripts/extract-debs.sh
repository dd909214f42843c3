#!/usr/bin/env bash
# Unpacks .deb files (dpkg -x, or ar + tar where dpkg is missing) into a prefix and rewrites the
# absolute /usr paths in their CMake configs and pkg-config files to point into that prefix.
# Usage: extract-debs.sh <folder with .deb files> <prefix>
set -euo pipefail
src="$1"
prefix="$2"
mkdir -p "$prefix"
for deb in "$src"/*.deb; do
  if command -v dpkg > /dev/null; then
    dpkg -x "$deb" "$prefix"
  else
    tmp=$(mktemp -d)
    (cd "$tmp" && ar x "$deb" && tar -xf data.tar.* -C "$prefix")
    rm -rf "$tmp"
  fi
done
multiarch="$prefix/usr/lib/x86_64-linux-gnu"
# Debian's alternatives are not run by dpkg -x: link the openblas-pthread libraries where the
# alternatives would.
for lib in libopenblas.so.0 libblas.so.3 liblapack.so.3; do
  [ -e "$multiarch/openblas-pthread/$lib" ] && ln -sf "openblas-pthread/$lib" "$multiarch/$lib"
done
# Absolute /usr paths -> the prefix (only in files not yet rewritten).
grep -rlI --include='*.cmake' --include='*.pc' -e '/usr' "$prefix/usr" 2> /dev/null \
  | xargs -r grep -L -F "$prefix" \
  | xargs -r sed -i -E -e "s#(^|[^A-Za-z0-9_./-])/usr/#\1$prefix/usr/#g" -e "s#^prefix=/usr\$#prefix=$prefix/usr#" || true
echo "extracted into $prefix"
