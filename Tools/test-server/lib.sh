# Shell functions shared by the test-server personalities (Tools/test-server/courier, cyrus, exim).
# Sourced after the caller set DIR (the server's folder) and NAME (for messages).

die() { echo "$NAME: $*" >&2; exit 1; }

# Process $1 exists and is not a zombie.
alive() {
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null || return 1
  [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != "Z" ]
}
# The pid in FILE, if that process is alive and its command line mentions DIR (so a reused pid is ignored).
pid_from() {
  local f="$1" pid
  [ -f "$f" ] || return 1
  pid="$(tr -dc '0-9' < "$f")"
  alive "$pid" || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF "$DIR/" || return 1
  echo "$pid"
}
# Stops the process in FILE (TERM, then KILL after 5 s) and removes FILE.
stop_pid_file() {
  local pid i
  pid="$(pid_from "$1" || true)"
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$1"
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# Waits up to 20 s until every port given accepts connections.
wait_ports() {
  local i p ok
  for i in $(seq 1 200); do
    ok=1
    for p in "$@"; do port_open "$p" || { ok=""; break; }; done
    [ -n "$ok" ] && return 0
    sleep 0.1
  done
  return 1
}

# Installs the Debian packages given that are missing (never a package's recommends: cyrus-common
# recommends cyrus-imapd, which would remove dovecot-imapd).
ensure_debs() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "$NAME: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 \
      "${missing[@]}" >/dev/null
  fi
}

# Unpacks the Debian package PACKAGE (its candidate version) into /opt/mailstore-test/PACKAGE without
# installing it (`apt-get download` + `dpkg -x`): for servers whose package conflicts with dovecot-imapd
# (they all provide and conflict with imap-server). Prints the folder. Reused while the version matches.
unpacked_deb() {
  local package="$1" root="/opt/mailstore-test/$1" version tmp
  version="$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')"
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    apt-get update -qq
    version="$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')"
  fi
  [ -n "$version" ] && [ "$version" != "(none)" ] || die "Debian has no package $package (apt-cache policy $package)"
  mkdir -p /opt/mailstore-test
  (
    flock 9
    if [ "$(cat "$root/.version" 2>/dev/null)" != "$version" ]; then
      echo "$NAME: unpacking $package $version into $root (not installed: it conflicts with dovecot-imapd)" >&2
      tmp="$(mktemp -d /tmp/mailstore-deb-XXXXXX)"
      chmod 755 "$tmp"
      ( cd "$tmp" && apt-get download -q "$package=$version" >/dev/null 2>&1 ) ||
        { rm -rf "$tmp"; die "apt-get download $package=$version failed"; }
      rm -rf "$root"
      mkdir -p "$root"
      dpkg -x "$tmp"/*.deb "$root"
      rm -rf "$tmp"
      echo "$version" > "$root/.version"
    fi
  ) 9>"/opt/mailstore-test/.$package.lock" || exit 1
  echo "$root"
}

# A private CA (DIR/ca.pem, DIR/ca.key) and a server certificate it signs (DIR/tls/server.pem, .key,
# SAN DNS:localhost, IP:127.0.0.1); the same files and lock as Tools/test-server/dovecot and smtp make.
make_certs() {
  mkdir -p "$DIR/tls"
  (
    flock 9
    if [ ! -s "$DIR/ca.pem" ] || [ ! -s "$DIR/ca.key" ]; then
      rm -f "$DIR/tls/server.pem" "$DIR/tls/server.key"
      printf '%s\n' '[req]' 'distinguished_name = dn' 'x509_extensions = v3_ca' 'prompt = no' '[dn]' 'CN = mailstore test CA' \
        '[v3_ca]' 'basicConstraints = critical, CA:TRUE' 'keyUsage = critical, keyCertSign, cRLSign' \
        'subjectKeyIdentifier = hash' 'authorityKeyIdentifier = keyid:always' > "$DIR/tls/ca.cnf"
      openssl req -x509 -new -newkey rsa:2048 -nodes -sha256 -days 3650 -config "$DIR/tls/ca.cnf" \
        -keyout "$DIR/ca.key" -out "$DIR/ca.pem" 2>/dev/null
      chmod 600 "$DIR/ca.key"; chmod 644 "$DIR/ca.pem"
    fi
    if [ ! -s "$DIR/tls/server.pem" ] || [ ! -s "$DIR/tls/server.key" ] ||
       ! openssl verify -CAfile "$DIR/ca.pem" "$DIR/tls/server.pem" >/dev/null 2>&1 ||
       ! openssl x509 -in "$DIR/tls/server.pem" -noout -checkend 86400 >/dev/null 2>&1; then
      printf '%s\n' '[req]' 'distinguished_name = dn' 'prompt = no' '[dn]' 'CN = localhost' '[v3_server]' \
        'basicConstraints = critical, CA:FALSE' 'keyUsage = critical, digitalSignature, keyEncipherment' \
        'extendedKeyUsage = serverAuth' 'subjectAltName = DNS:localhost, IP:127.0.0.1' \
        'subjectKeyIdentifier = hash' 'authorityKeyIdentifier = keyid, issuer' > "$DIR/tls/server.cnf"
      openssl req -new -newkey rsa:2048 -nodes -sha256 -config "$DIR/tls/server.cnf" \
        -keyout "$DIR/tls/server.key" -out "$DIR/tls/server.csr" 2>/dev/null
      openssl x509 -req -sha256 -days 825 -in "$DIR/tls/server.csr" -CA "$DIR/ca.pem" -CAkey "$DIR/ca.key" \
        -set_serial "0x$(openssl rand -hex 8)" -extfile "$DIR/tls/server.cnf" -extensions v3_server \
        -out "$DIR/tls/server.pem" 2>/dev/null
      rm -f "$DIR/tls/server.csr"
      chmod 600 "$DIR/tls/server.key"; chmod 644 "$DIR/tls/server.pem"
    fi
  ) 9>"$DIR/.certs.lock"
}

# Writes PASSWORD to DIR/NAME.password (0600, no newline), owned by the sudo caller when there is one.
write_password_file() {
  local file="$DIR/$1.password"
  ( umask 077; printf '%s' "$2" > "$file" )
  chmod 600 "$file"
  if [ -n "${SUDO_UID:-}" ] && [ -n "${SUDO_GID:-}" ]; then chown "$SUDO_UID:$SUDO_GID" "$file"; fi
}

# USER and PASSWORD for adduser: no ':', '|', spaces or control characters (they go into user files).
check_user_password() {
  case "$1$2" in *[:\|[:space:]]*|*[![:print:]]*) die "USER and PASSWORD may not hold ':', '|', spaces or control characters" ;; esac
  case "$1" in *@*) ;; *) die "USER must be an address (name@domain): $1" ;; esac
}
