#!/usr/bin/env bash
# Builds, from Debian packages, a local stand-in for the base image the Containerfile names, for
# machines that cannot pull it: Debian's minimal base (debootstrap), the Node.js binary given as
# the first argument, npm (from the machine's own installation) and the `node` user (uid 1000),
# as the official image has them. Does nothing when podman already has an image of that name.
#
#   scripts/local-base-image.sh path/to/node [image-name]
#
# Podman's global options (runtime, cgroup manager) come from PODMAN_OPTIONS.
set -euo pipefail

node_binary="${1:?usage: local-base-image.sh path/to/node [image-name]}"
image="${2:-$(sed -n 's/^ARG NODE_IMAGE=//p' "$(dirname "$0")/../Containerfile")}"
suite="${DEBIAN_SUITE:-bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# shellcheck disable=SC2206
podman=(podman ${PODMAN_OPTIONS:-})

if "${podman[@]}" image exists "$image"; then
  echo "base image $image: present, kept"
  exit 0
fi

npm_root="$(npm root -g)/npm"
[ -f "$npm_root/bin/npm-cli.js" ] || { echo "npm not found under $npm_root" >&2; exit 1; }

rootfs="$(mktemp -d)"
trap 'rm -rf "$rootfs"' EXIT
echo "base image $image: debootstrap --variant=minbase $suite (a few minutes)"
debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >/dev/null

install -m 0755 "$node_binary" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_root" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/tmp/*

tar -C "$rootfs" -c . | "${podman[@]}" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >/dev/null
echo "base image $image: built"
