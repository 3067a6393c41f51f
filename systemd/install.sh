#!/usr/bin/env bash
# Install Tableside on Raspberry Pi OS (Bookworm) as a systemd service.
#
#   sudo systemd/install.sh [--dry-run] [--force] [--with spi] [--config FILE]
#
# Run it from a checkout. Every step looks before it acts, so running it
# again changes nothing, and it is also how an installed box is updated.
# It installs what the configuration needs: the installed one, or the
# example (the reference build on I2C) on a first installation.
#
#   --dry-run      print the plan (packages, raspi-config steps, files) and
#                  change nothing (needs no root)
#   --force        install even when not root or not on Raspberry Pi OS;
#                  what only Raspberry Pi OS has is skipped with a note
#   --with spi     bring the SPI libraries even if the configuration does
#                  not use SPI yet (an SPI panel, the RC522)
#   --config FILE  plan for FILE instead of the installed configuration
#
# Where udev or systemd is not running (an image built in a chroot), the
# rules and units are installed and enabled, and what only a running system
# can do (reload them, make the /run folders, restart) is left to the next
# boot, said in one note.
#
# TABLESIDE_ROOT moves every path the script reads, writes or runs from
# under another folder, and TABLESIDE_ARCH stands for the system's
# architecture (the tests use both); apt-get, useradd, pip and systemctl
# still act on this system.
set -euo pipefail

usage() {
	sed -n '2,27s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

DRY_RUN=0
FORCE=0
WITH=()
PLAN_CONFIG=
while (($#)); do
	case "$1" in
	--dry-run) DRY_RUN=1 ;;
	--force) FORCE=1 ;;
	--with | --config)
		if (($# < 2)); then
			echo "install.sh: $1 needs a value" >&2
			exit 2
		fi
		if [[ $1 == --config ]]; then
			PLAN_CONFIG=$2
		elif [[ $2 == spi ]]; then
			WITH+=(spi)
		else
			echo "install.sh: --with accepts spi, not $2" >&2
			exit 2
		fi
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		echo "install.sh: unknown option $1" >&2
		usage >&2
		exit 2
		;;
	esac
	shift
done

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${TABLESIDE_ROOT:-}
ARCH=${TABLESIDE_ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
SERVICE=tableside
SERVICE_GROUPS=(gpio i2c spi dialout)
# What the wheel is built from: pyproject.toml's readme and its packages' folders.
SHIPPED=(pyproject.toml README.md rules hw firmware_app)
VENV=$ROOT/opt/tableside/venv
# Which source and extras the environment holds: an unchanged checkout is not reinstalled.
STAMP=$VENV/tableside-source.sha256
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
CHANGED=0 # set by every step that changes the installation
NOT_RUN=() # commands that only a running udev or systemd carries out, left to the next boot
DOWN=()    # which of the two is not running here

step() {
	printf '==> %s\n' "$*"
}

note() {
	printf '    note: %s\n' "$*"
}

# Run a command, or only show it in a dry run.
run() {
	CHANGED=1
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

# Whether systemd is the running service manager: sd_booted(3)'s own test.
# In a chroot (an image being built) or a container without it, there is no
# manager to reload or to start the service.
systemd_running() {
	[[ -d $ROOT/run/systemd/system ]]
}

# Whether udevd is running: its control socket, which udevadm control talks to.
udev_running() {
	[[ -e $ROOT/run/udev/control ]]
}

# Run a command that only a running udev or systemd (the first argument) can
# carry out; where that one is not running, keep it for note_not_run.
run_live() {
	local needs=$1 command
	shift
	if "${needs}_running"; then
		run "$@"
		return
	fi
	for command in "${NOT_RUN[@]}"; do
		[[ $command != "$*" ]] || return 0
	done
	NOT_RUN+=("$*")
	[[ " ${DOWN[*]} " == *" $needs "* ]] || DOWN+=("$needs")
}

# One note for everything run_live left to the next boot.
note_not_run() {
	((${#NOT_RUN[@]})) || return 0
	local down=${DOWN[0]} verb=is commands
	if ((${#DOWN[@]} > 1)); then
		down="udev and systemd" verb=are
	fi
	commands=$(printf ', %s' "${NOT_RUN[@]}")
	note "$down $verb not running here (an image build?): the rules and units are installed" \
		"and take effect at the next boot (not run: ${commands#, })"
}

# A fingerprint of the boot files: when it changes, the new settings need a reboot.
boot_fingerprint() {
	{ cat "$BOOT_CONFIG" "$CMDLINE" 2>/dev/null || true; } | cksum
}

is_pi_os() {
	[[ -x $RASPI_CONFIG ]]
}

check_system() {
	if ((!DRY_RUN && EUID != 0 && !FORCE)); then
		die "run it as root: sudo $0 (or add --force)"
	fi
	if ((!FORCE)); then
		is_pi_os || die "no $RASPI_CONFIG: not Raspberry Pi OS? (add --force to go on)"
		[[ -f $BOOT_CONFIG ]] || die "no $BOOT_CONFIG: not Raspberry Pi OS? (add --force to go on)"
	fi
	[[ -f $SOURCE/pyproject.toml ]] || die "$SOURCE is not a Tableside checkout"
	[[ -f $UNIT_SOURCE ]] || die "missing $UNIT_SOURCE"
	[[ -f $CONFIG_EXAMPLE ]] || die "missing $CONFIG_EXAMPLE"
}

# The plan: NEEDS (optional parts the configuration uses), APT_PACKAGES,
# EXTRAS (of pyproject.toml) and SYSTEM_SITE (the environment sees apt's
# Python packages).
plan() {
	local config=${PLAN_CONFIG:-$CONFIG}
	[[ -n $PLAN_CONFIG || -e $CONFIG ]] || config=$CONFIG_EXAMPLE
	if ! command -v python3 >/dev/null; then
		((!DRY_RUN)) || die "python3 is needed to read $config: sudo apt-get install python3"
		step "python3, to read the configuration"
		run apt-get update
		run apt-get install -y --no-install-recommends python3
	fi
	# -B: no bytecode written into the owner's checkout.
	local found
	found=$(python3 -B "$SOURCE/systemd/config_needs.py" "$config") ||
		die "fix $config first (the daemon would refuse it too)"
	mapfile -t NEEDS < <(printf '%s\n' "$found" "${WITH[@]}" | sed '/^$/d' | sort -u)
	step "configuration $config: ${NEEDS[*]:-nothing optional} on $ARCH"

	APT_PACKAGES=(python3-venv i2c-tools)
	EXTRAS=(pi)
	SYSTEM_SITE=0
	case $ARCH in
	armhf | armel)
		# No 32-bit ARM wheels of Pillow or lgpio on the main index: apt's, seen
		# through the system site packages; cbor2 (for luma) likewise.
		SYSTEM_SITE=1
		APT_PACKAGES+=(python3-pil python3-cbor2)
		if is_pi_os; then
			APT_PACKAGES+=(python3-lgpio)
		else
			note "python3-lgpio is Raspberry Pi OS's; skipped, and with it the GPIO and SPI libraries"
			EXTRAS=()
		fi
		;;
	esac
	if [[ " ${NEEDS[*]} " == *" spi "* && -n ${EXTRAS[*]} ]]; then
		# spidev is built from source; RPi.GPIO (from rpi-lgpio) drives the panel's DC and RST.
		APT_PACKAGES+=(gcc libc6-dev python3-dev)
		EXTRAS+=(spi)
	fi
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
	# Not counted as a change: it only repeats what useradd and the first run did.
	local changed=$CHANGED
	run usermod --append --groups "$joined" "$SERVICE"
	CHANGED=$changed
}

# The shipped files of the checkout, NUL-separated, in a fixed order.
shipped_files() {
	(cd "$SOURCE" && find "${SHIPPED[@]}" -name __pycache__ -prune -o -type f ! -name '*.pyc' -print0) |
		LC_ALL=C sort -z
}

source_stamp() {
	local extras
	extras=$(
		IFS=,
		echo "${EXTRAS[*]}"
	)
	local sum
	sum=$(cd "$SOURCE" && shipped_files | xargs -0 sha256sum | sha256sum)
	echo "${sum%% *} [$extras]"
}

install_app() {
	local site=false option=()
	if ((SYSTEM_SITE)); then
		site=true
		option=(--system-site-packages)
	fi
	step "Python environment $VENV (system site packages: $site)"
	if [[ -x $VENV/bin/python ]] &&
		grep -qx "include-system-site-packages = $site" "$VENV/pyvenv.cfg" 2>/dev/null; then
		echo "    exists"
	else
		[[ ! -e $VENV ]] || run rm -rf "$VENV"
		run python3 -m venv "${option[@]}" "$VENV"
	fi

	local extras stamp
	extras=$(
		IFS=,
		echo "${EXTRAS[*]}"
	)
	stamp=$(source_stamp)
	step "Tableside from $SOURCE${extras:+ with [$extras]}"
	if [[ -f $STAMP && $(cat "$STAMP") == "$stamp" ]]; then
		echo "    up to date"
	elif ((DRY_RUN)); then
		CHANGED=1
		echo "    would copy ${SHIPPED[*]} to a temporary folder and build there"
		echo "    would run: $VENV/bin/pip install --upgrade '<copy>${extras:+[$extras]}'"
	else
		# Built from a fresh copy: nothing is written into the owner's checkout,
		# and no build folder of an earlier version lends it files upstream removed.
		local copy
		copy=$(mktemp -d "${TMPDIR:-/tmp}/tableside-build.XXXXXX")
		# shellcheck disable=SC2064 # the folder is known now
		trap "rm -rf '$copy'" EXIT
		(cd "$SOURCE" && shipped_files | tar --null -T - -cf -) | tar -C "$copy" --no-same-owner -xf -
		run "$VENV/bin/pip" install --upgrade "$copy${extras:+[$extras]}"
		echo "$stamp" >"$STAMP"
	fi
	clean_checkout
}

# Earlier versions of this script built inside the checkout as root.
clean_checkout() {
	local owner leftover
	owner=$(stat -c %u "$SOURCE")
	((owner != 0)) || return 0
	while IFS= read -r -d '' leftover; do
		run rm -rf "$leftover"
	done < <(find "$SOURCE" -maxdepth 1 \( -name build -o -name '*.egg-info' \) -user 0 -print0)
}

enable_interfaces() {
	local spi=0
	[[ " ${NEEDS[*]} " != *" spi "* ]] || spi=1
	step "I2C on, serial console off, UART on$( ((spi)) && echo ', SPI on')"
	if [[ -f $BOOT_CONFIG && ! -e $BOOT_CONFIG.before-tableside ]]; then
		run cp -p "$BOOT_CONFIG" "$BOOT_CONFIG.before-tableside"
	fi
	if [[ -f $CMDLINE && ! -e $CMDLINE.before-tableside ]]; then
		run cp -p "$CMDLINE" "$CMDLINE.before-tableside"
	fi
	if is_pi_os; then
		# Each only rewrites its own line, so it changes nothing once done; a
		# change shows in the boot files' fingerprint.
		local changed=$CHANGED
		run "$RASPI_CONFIG" nonint do_i2c 0
		run "$RASPI_CONFIG" nonint do_serial_cons 1
		run "$RASPI_CONFIG" nonint do_serial_hw 0
		((!spi)) || run "$RASPI_CONFIG" nonint do_spi 0
		CHANGED=$changed
	else
		note "no $RASPI_CONFIG: enable I2C$( ((spi)) && echo ', SPI') and the UART by hand (wiring.md)"
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
		run_live systemd systemctl daemon-reload
	fi
	local changed=$CHANGED
	# Works without a running systemd too (it only makes the wants/ link).
	run systemctl enable "$SERVICE.service" # does nothing when enabled already
	CHANGED=$changed
}

# --- USB stick ------------------------------------------------------------------
# Results and backups on a USB stick (docs/install.md, "A USB stick"): a udev rule
# starts tableside-stick@.service, whose script mounts the stick on
# /run/tableside-stick/stick for the daemon. Each line: source in systemd/, target, mode.
STICK_FILES="99-tableside-usb.rules /etc/udev/rules.d/99-tableside-usb.rules 0644
tableside-stick@.service /etc/systemd/system/tableside-stick@.service 0644
tableside-stick /usr/local/libexec/tableside-stick 0755
tableside-tmpfiles.conf /etc/tmpfiles.d/tableside.conf 0644"

install_stick() {
	step "USB stick: udev rule, tableside-stick@.service, the folders in /run"
	local source target mode changed=0
	while read -r source target mode; do
		if ! cmp -s "$SOURCE/systemd/$source" "$ROOT$target"; then
			run install -D -m "$mode" "$SOURCE/systemd/$source" "$ROOT$target"
			changed=1
		fi
	done <<<"$STICK_FILES"
	if ((changed)); then
		# At every boot systemd makes both folders from the tmpfiles.d file itself.
		run_live systemd systemd-tmpfiles --create "$ROOT/etc/tmpfiles.d/tableside.conf"
		run_live udev udevadm control --reload
		run_live systemd systemctl daemon-reload
	else
		echo "    unchanged"
	fi
}
# --- end of USB stick ----------------------------------------------------------

main() {
	check_system
	local before
	before=$(boot_fingerprint)
	plan
	install_packages
	create_user
	install_app
	enable_interfaces
	install_config
	install_stick
	install_unit
	local boot_changed=0
	[[ $(boot_fingerprint) == "$before" ]] || boot_changed=1
	if ((!DRY_RUN && !boot_changed && CHANGED)); then
		run_live systemd systemctl restart "$SERVICE.service"
	fi
	note_not_run
	if ((DRY_RUN)); then
		step "dry run: nothing was changed"
	elif ! systemd_running && ((boot_changed || CHANGED)); then
		step "installed; Tableside starts at the next boot"
	elif ((boot_changed)); then
		step "boot settings changed: reboot now (sudo reboot); Tableside starts by itself"
	elif ((CHANGED)); then
		step "no reboot needed; Tableside is (re)started: journalctl -u $SERVICE -f"
	else
		step "nothing changed; Tableside left running as it was"
	fi
}

main
