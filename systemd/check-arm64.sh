#!/usr/bin/env bash
# Check the install path without a Pi: install.sh in an emulated Debian root.
#
#   sudo systemd/check-arm64.sh [--arch arm64|armhf] [--work DIR]
#
# Builds a Debian 12 root for the architecture with debootstrap (once; it is
# kept in DIR for the next run), runs it under qemu-user through binfmt_misc,
# and checks, timing each part:
#
#   1. install.sh from a clone owned by an ordinary user, with stand-ins for
#      what only a Raspberry Pi has (below); the daemon then starts on the
#      fake drivers as the service user, reports READY=1, and stops cleanly
#      on SIGTERM (systemd/check_daemon.py);
#   2. arm64: a configuration with an SPI panel and the RC522; install.sh
#      adds spidev (built there) and RPi.GPIO, and both import; the panel is
#      then missing only its device, not a library;
#   3. an update: a module added to the clone is installed, and gone from
#      the environment once removed from the clone;
#   4. install.sh once more changes no file of the root;
#   5. nothing in the clone is owned by root.
#
# arm64 plays 64-bit Raspberry Pi OS: /usr/bin/raspi-config and the boot
# files exist, so install.sh runs without --force. armhf plays a 32-bit
# Debian that is not Raspberry Pi OS: no raspi-config, install.sh --force.
#
# Stand-ins: raspi-config (its nonint do_i2c, do_spi, do_serial_hw and
# do_serial_cons edit /boot/firmware/config.txt and cmdline.txt as the real
# one does), systemctl (enable makes the wants/ link, the rest is logged to
# /var/log/systemctl-stand-in.log; no systemd runs in the root), and
# RPI_LGPIO_REVISION=d04170 (a Pi 5) for the device tree's board revision
# that rpi-lgpio reads when imported.
#
# Needs root, debootstrap, qemu-user-static and binfmt-support, and access
# to Debian's archive and the Python package index. pip in the root trusts
# the certificate authorities of this machine (its /etc/ssl/certs/ca-certificates.crt).
set -Eeuo pipefail

ARCH=arm64
WORK=${TMPDIR:-/tmp}/tableside-check
while (($#)); do
	case "$1" in
	--arch)
		ARCH=${2:?}
		shift
		;;
	--work)
		WORK=${2:?}
		shift
		;;
	-h | --help)
		sed -n '2,32s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
		exit 0
		;;
	*)
		echo "check-arm64.sh: unknown option $1" >&2
		exit 2
		;;
	esac
	shift
done

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BASE=$WORK/base-$ARCH
ROOT=$WORK/root-$ARCH
CLONE=/home/owner/tableside
VENV=/opt/tableside/venv
START=$SECONDS
declare -A QEMU=([arm64]=aarch64 [armhf]=arm)
HOST_CA=/etc/ssl/certs/ca-certificates.crt
CA=/etc/ssl/check-host-ca.crt

say() {
	printf '[%4ds] %s\n' $((SECONDS - START)) "$*"
}

fail() {
	say "FAILED: $*"
	exit 1
}

# Run a timed part: its name, then the command. Any command failing in it
# fails the check (the ERR trap; under "||" errexit would be off).
timed() {
	PART=$1
	local began=$SECONDS
	shift
	"$@"
	TIMES+=("$PART: $((SECONDS - began)) s")
	say "ok: $PART ($((SECONDS - began)) s)"
}
PART=start
trap 'fail "$PART (line $LINENO)"' ERR

inside() {
	chroot "$ROOT" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 PIP_CERT="$CA" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

check_host() {
	((EUID == 0)) || fail "run it as root: sudo $0"
	command -v debootstrap >/dev/null || fail "no debootstrap: apt-get install debootstrap qemu-user-static binfmt-support"
	local entry=/proc/sys/fs/binfmt_misc/qemu-${QEMU[$ARCH]:?unknown architecture $ARCH}
	if [[ ! -e $entry ]]; then
		mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
		update-binfmts --enable "qemu-${QEMU[$ARCH]}"
	fi
	grep -qx enabled "$entry" || fail "$entry is not enabled"
}

make_base() {
	if [[ -x $BASE/bin/bash ]]; then
		say "Debian root $BASE kept from an earlier run"
		return
	fi
	mkdir -p "$WORK"
	rm -rf "$BASE.partial"
	debootstrap --arch="$ARCH" --variant=minbase bookworm "$BASE.partial" >"$WORK/debootstrap-$ARCH.log" 2>&1 ||
		fail "debootstrap; see $WORK/debootstrap-$ARCH.log"
	mv "$BASE.partial" "$BASE"
}

unmount() {
	local point
	for point in proc sys dev; do
		! mountpoint -q "$ROOT/$point" || umount -l "$ROOT/$point"
	done
}

make_root() {
	unmount
	rm -rf "$ROOT"
	cp -a "$BASE" "$ROOT"
	trap unmount EXIT
	mount -t proc proc "$ROOT/proc"
	mount -t sysfs sysfs "$ROOT/sys"
	mount --bind /dev "$ROOT/dev"
	cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
	# pip in the root trusts what this machine trusts (a proxy's own authority, say).
	install -D -m 0644 "$HOST_CA" "$ROOT$CA"
	inside useradd --create-home --uid 1000 --shell /bin/bash owner
	# The clone: what git tracks, as its owner.
	mkdir -p "$ROOT$CLONE"
	git -C "$SOURCE" ls-files -z | (cd "$SOURCE" && tar --null -T - -cf -) |
		tar -C "$ROOT$CLONE" --no-same-owner -xf -
	chown -R 1000:1000 "$ROOT/home/owner"
	if [[ $ARCH == arm64 ]]; then
		pi_os_stand_ins
	fi
	systemctl_stand_in
}

pi_os_stand_ins() {
	mkdir -p "$ROOT/boot/firmware"
	printf '%s\n' '# For more options and information see http://rptl.io/configtxt' \
		'dtparam=audio=on' 'camera_auto_detect=1' 'display_auto_detect=1' \
		'[cm4]' 'otg_mode=1' '[all]' >"$ROOT/boot/firmware/config.txt"
	echo 'console=serial0,115200 console=tty1 root=PARTUUID=0-02 rootfstype=ext4 fsck.repair=yes rootwait' \
		>"$ROOT/boot/firmware/cmdline.txt"
	cat >"$ROOT/usr/bin/raspi-config" <<'STAND_IN'
#!/bin/sh
# Stand-in for Raspberry Pi OS's raspi-config: the nonint steps install.sh uses.
set -e
config=/boot/firmware/config.txt
cmdline=/boot/firmware/cmdline.txt
line() { grep -qx "$1" "$config" || echo "$1" >>"$config"; }
[ "$1" = nonint ] || { echo "raspi-config stand-in: only nonint" >&2; exit 1; }
case "$2 $3" in
"do_i2c 0") line dtparam=i2c_arm=on ;;
"do_spi 0") line dtparam=spi=on ;;
"do_serial_hw 0") line enable_uart=1 ;;
"do_serial_cons 1")
	if grep -q 'console=serial0,[0-9]* ' "$cmdline"; then
		sed -i 's/console=serial0,[0-9]* //' "$cmdline"
	fi
	;;
*) echo "raspi-config stand-in: $2 $3 not known" >&2; exit 1 ;;
esac
STAND_IN
	chmod 755 "$ROOT/usr/bin/raspi-config"
}

systemctl_stand_in() {
	cat >"$ROOT/usr/local/sbin/systemctl" <<'STAND_IN'
#!/bin/sh
# Stand-in for systemctl in a root where no systemd runs.
echo "systemctl $*" >>/var/log/systemctl-stand-in.log
if [ "$1" = enable ]; then
	wants=/etc/systemd/system/multi-user.target.wants
	mkdir -p "$wants"
	[ -L "$wants/$2" ] || ln -s "/etc/systemd/system/$2" "$wants/$2"
fi
STAND_IN
	chmod 755 "$ROOT/usr/local/sbin/systemctl"
}

install_sh() {
	local force=()
	[[ $ARCH == arm64 ]] || force=(--force)
	inside bash -c "cd $CLONE && systemd/install.sh ${force[*]}" >"$WORK/last-install.log" 2>&1 ||
		{
			cat "$WORK/last-install.log" >>"$WORK/install-$ARCH.log"
			return 1
		}
	cat "$WORK/last-install.log" >>"$WORK/install-$ARCH.log"
}

run_daemon() {
	cat >"$ROOT/etc/tableside/fakes.toml" <<'TOML'
[buttons]
driver = "fake"
[display]
driver = "fake"
[reader]
driver = "fake"
[buzzer]
driver = "fake"
TOML
	inside install -d -o tableside -g tableside -m 0700 /var/lib/tableside
	inside bash -c "cd /var/lib/tableside && TABLESIDE_STATE_DIR=/var/lib/tableside \
		$VENV/bin/python -B $CLONE/systemd/check_daemon.py 600 \
		setpriv --reuid tableside --regid tableside --init-groups \
		$VENV/bin/tableside run --config /etc/tableside/fakes.toml"
}

use_spi() {
	cat >"$ROOT/etc/tableside/tableside.toml" <<'TOML'
[display]
driver = "sh1106"
interface = "spi"

[reader]
driver = "rc522-spi"
TOML
	install_sh
}

spi_libraries() {
	grep -qx dtparam=spi=on "$ROOT/boot/firmware/config.txt"
	# rpi-lgpio reads the board's revision from the device tree, which an
	# emulated root lacks; its own override names a Pi 5 instead.
	inside RPI_LGPIO_REVISION=d04170 "$VENV/bin/python" -B - <<'PY'
import logging
import spidev, RPi.GPIO, lgpio  # noqa: F401
from firmware_app.store.config import load_config
from hw.display import build_display

messages = []


class Keep(logging.Handler):
    def emit(self, record):
        messages.append(record.getMessage())


logging.getLogger().addHandler(Keep())
build_display(load_config("/etc/tableside/tableside.toml").display)
print("spidev", spidev.__version__, "| RPi.GPIO from", RPi.GPIO.__file__, "|", messages)
assert messages and not any("No module" in m or "import of" in m for m in messages), messages
PY
}

update_removes() {
	local module=firmware_app/check_removed_upstream.py site
	site=$(inside "$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
	inside setpriv --reuid owner --regid owner --init-groups \
		sh -c "echo '\"\"\"Added by the check.\"\"\"' >$CLONE/$module"
	install_sh
	[[ -f $ROOT$site/$module ]]
	inside setpriv --reuid owner --regid owner --init-groups rm "$CLONE/$module"
	install_sh
	[[ ! -e $ROOT$site/$module ]]
}

# Every file of the root with its mode, owner and content (hashed here, at native speed).
root_files() {
	local skip=(\( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./run
		-o -path ./var/log/systemctl-stand-in.log \) -prune)
	cd "$ROOT"
	find . -xdev "${skip[@]}" -o -printf '%p %m %U %G %l\n' | LC_ALL=C sort >"$WORK/files-$1"
	find . -xdev "${skip[@]}" -o -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum >>"$WORK/files-$1"
	cd - >/dev/null
}

second_run_changes_nothing() {
	root_files before
	install_sh
	root_files after
	grep -q '^==> nothing changed' "$WORK/last-install.log"
	diff "$WORK/files-before" "$WORK/files-after"
}

clone_stays_the_owners() {
	local root_owned
	root_owned=$(find "$ROOT$CLONE" -user 0)
	echo "$root_owned"
	[[ -z $root_owned ]]
}

main() {
	TIMES=()
	check_host
	timed "debootstrap $ARCH (or kept)" make_base
	timed "fresh root, clone, stand-ins" make_root
	: >"$WORK/install-$ARCH.log"
	timed "first install.sh" install_sh
	timed "daemon on fakes: READY=1, SIGTERM, STOPPING=1" run_daemon
	if [[ $ARCH == arm64 ]]; then
		timed "install.sh for an SPI panel and the RC522" use_spi
		timed "SPI libraries import; only the device is missing" spi_libraries
	fi
	timed "update adds, then removes, a module" update_removes
	timed "install.sh again changes no file" second_run_changes_nothing
	timed "nothing root-owned in the clone" clone_stays_the_owners
	say "passed on $ARCH in $((SECONDS - START)) s; install log: $WORK/install-$ARCH.log"
	printf '    %s\n' "${TIMES[@]}"
}

main
