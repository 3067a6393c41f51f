#!/usr/bin/env bash
# Install Tableside on Raspberry Pi OS (Bookworm) as a systemd service.
#
#   sudo systemd/install.sh [--dry-run] [--force]
#
# Run it from a checkout. Every step looks before it acts, so running it
# again is safe, and it is also how an installed box is updated.
#
#   --dry-run  print what would be done and change nothing (needs no root)
#   --force    install even when not root or not on Raspberry Pi OS
#
# TABLESIDE_ROOT moves every path the script reads, writes or runs from
# under another folder (the tests use it); apt-get, useradd, pip and
# systemctl still act on this system.
set -euo pipefail

usage() {
	sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

DRY_RUN=0
FORCE=0
for arg in "$@"; do
	case "$arg" in
	--dry-run) DRY_RUN=1 ;;
	--force) FORCE=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		echo "install.sh: unknown option $arg" >&2
		usage >&2
		exit 2
		;;
	esac
done

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${TABLESIDE_ROOT:-}
SERVICE=tableside
SERVICE_GROUPS=(gpio i2c spi dialout)
# python3-pil is not imported (the venv gets a newer Pillow); it pulls in the
# image libraries that Pillow's 32-bit ARM wheels link against.
APT_PACKAGES=(python3-venv python3-pip python3-lgpio python3-pil i2c-tools)
VENV=$ROOT/opt/tableside/venv
CONFIG=$ROOT/etc/tableside/tableside.toml
CONFIG_EXAMPLE=$SOURCE/docs/tableside.example.toml
UNIT=$ROOT/etc/systemd/system/$SERVICE.service
UNIT_SOURCE=$SOURCE/systemd/$SERVICE.service
RASPI_CONFIG=$ROOT/usr/bin/raspi-config
I2C_LINE=dtparam=i2c_arm=on,i2c_baudrate=400000
# Bookworm moved the boot partition to /boot/firmware; older images use /boot.
BOOT=$ROOT/boot/firmware
if [[ ! -f $BOOT/config.txt && -f $ROOT/boot/config.txt ]]; then
	BOOT=$ROOT/boot
fi
BOOT_CONFIG=$BOOT/config.txt
CMDLINE=$BOOT/cmdline.txt

step() {
	printf '==> %s\n' "$*"
}

# Run a command, or only show it in a dry run.
run() {
	if ((DRY_RUN)); then
		printf '    would run: %s\n' "$*"
	else
		printf '    running: %s\n' "$*"
		"$@"
	fi
}

die() {
	echo "install.sh: $*" >&2
	exit 1
}

# A fingerprint of the boot files: when it changes, the new settings need a reboot.
boot_fingerprint() {
	{ cat "$BOOT_CONFIG" "$CMDLINE" 2>/dev/null || true; } | cksum
}

check_system() {
	if ((!DRY_RUN && EUID != 0 && !FORCE)); then
		die "run it as root: sudo $0 (or add --force)"
	fi
	if ((!FORCE)); then
		[[ -x $RASPI_CONFIG ]] || die "no $RASPI_CONFIG: not Raspberry Pi OS? (add --force to go on)"
		[[ -f $BOOT_CONFIG ]] || die "no $BOOT_CONFIG: not Raspberry Pi OS? (add --force to go on)"
	fi
	[[ -f $SOURCE/pyproject.toml ]] || die "$SOURCE is not a Tableside checkout"
	[[ -f $UNIT_SOURCE ]] || die "missing $UNIT_SOURCE"
	[[ -f $CONFIG_EXAMPLE ]] || die "missing $CONFIG_EXAMPLE"
}

install_packages() {
	step "system packages: ${APT_PACKAGES[*]}"
	local missing=() package
	for package in "${APT_PACKAGES[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
			missing+=("$package")
		fi
	done
	if ((${#missing[@]} == 0)); then
		echo "    all installed"
		return
	fi
	run apt-get update
	run apt-get install -y --no-install-recommends "${missing[@]}"
}

create_user() {
	step "system user $SERVICE in groups ${SERVICE_GROUPS[*]}"
	local group
	for group in "${SERVICE_GROUPS[@]}"; do
		getent group "$group" >/dev/null || run groupadd --system "$group"
	done
	if getent passwd "$SERVICE" >/dev/null; then
		echo "    user exists"
	else
		run useradd --system --user-group --no-create-home --home-dir /nonexistent \
			--shell /usr/sbin/nologin --comment Tableside "$SERVICE"
	fi
	local joined
	joined=$(
		IFS=,
		echo "${SERVICE_GROUPS[*]}"
	)
	run usermod --append --groups "$joined" "$SERVICE"
}

install_app() {
	step "Python environment $VENV"
	if [[ -x $VENV/bin/python ]]; then
		echo "    exists"
	else
		# System site packages: lgpio comes from apt, the only GPIO library of the Pi 5.
		run python3 -m venv --system-site-packages "$VENV"
	fi
	step "Tableside from $SOURCE"
	run "$VENV/bin/pip" install --upgrade "${SOURCE}[pi]"
}

enable_interfaces() {
	step "I2C on, serial console off, UART on"
	if [[ -f $BOOT_CONFIG && ! -e $BOOT_CONFIG.before-tableside ]]; then
		run cp -p "$BOOT_CONFIG" "$BOOT_CONFIG.before-tableside"
	fi
	if [[ -f $CMDLINE && ! -e $CMDLINE.before-tableside ]]; then
		run cp -p "$CMDLINE" "$CMDLINE.before-tableside"
	fi
	if [[ -x $RASPI_CONFIG ]]; then
		run "$RASPI_CONFIG" nonint do_i2c 0
		run "$RASPI_CONFIG" nonint do_serial_cons 1
		run "$RASPI_CONFIG" nonint do_serial_hw 0
	else
		echo "    no $RASPI_CONFIG: enable I2C and the UART by hand"
	fi
	step "I2C at 400 kHz in $BOOT_CONFIG"
	if [[ ! -f $BOOT_CONFIG ]]; then
		echo "    no $BOOT_CONFIG; skipped"
	elif grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c(_arm)?_baudrate=' "$BOOT_CONFIG"; then
		echo "    a baud rate is already set; kept"
	elif ((DRY_RUN)); then
		echo "    would append: [all] $I2C_LINE"
	else
		# [all] first: the file may end inside a section for another board.
		printf '\n[all]\n%s\n' "$I2C_LINE" >>"$BOOT_CONFIG"
		echo "    appended $I2C_LINE"
	fi
}

install_config() {
	step "configuration $CONFIG"
	if [[ -e $CONFIG ]]; then
		echo "    exists; kept"
	else
		run install -D -m 0644 "$CONFIG_EXAMPLE" "$CONFIG"
	fi
}

install_unit() {
	step "service $UNIT"
	if cmp -s "$UNIT_SOURCE" "$UNIT"; then
		echo "    unchanged"
	else
		run install -D -m 0644 "$UNIT_SOURCE" "$UNIT"
	fi
	run systemctl daemon-reload
	run systemctl enable "$SERVICE.service"
}

main() {
	check_system
	local before
	before=$(boot_fingerprint)
	install_packages
	create_user
	install_app
	enable_interfaces
	install_config
	install_unit
	if ((DRY_RUN)); then
		step "dry run: nothing was changed"
	elif [[ $(boot_fingerprint) != "$before" ]]; then
		step "boot settings changed: reboot now (sudo reboot); Tableside starts by itself"
	else
		run systemctl restart "$SERVICE.service"
		step "no reboot needed; Tableside is (re)started: journalctl -u $SERVICE -f"
	fi
}

main
