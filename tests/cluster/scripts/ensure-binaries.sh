#!/bin/sh
# The cluster tests drive Debian's PostgreSQL 15 (a primary and a streaming replica), PgBouncer, and for the failover
# tests Patroni, etcd and HAProxy. Install them when missing and possible (CI runs as root with apt-get); otherwise
# say so and let the tests skip themselves.
set -eu

PG_BIN="${CLUSTER_PG_BIN:-/usr/lib/postgresql/15/bin}"
PGBOUNCER="${CLUSTER_PGBOUNCER:-/usr/sbin/pgbouncer}"
PACKAGES="postgresql-15 pgbouncer patroni etcd-server haproxy"
present() {
  [ -x "$PG_BIN/pg_basebackup" ] && [ -x "$PGBOUNCER" ] && [ -x /usr/bin/patroni ] && [ -x /usr/bin/etcd ] && [ -x /usr/sbin/haproxy ]
}
if present; then
  exit 0
fi

echo "ensure-binaries: a server is missing; installing Debian's $PACKAGES" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi
if [ "$SUDO" = "none" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-binaries: SKIPPED: cannot install them (needs apt-get and root); the cluster tests that need them will be skipped" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# Serialised: parallel test runs must not fight over the dpkg lock. The packages' own services are not wanted
# (policy-rc.d 101 keeps them from starting); the tests run their own servers on free ports.
$SUDO flock /tmp/ensure-cluster-binaries.lock sh -c '
  [ -x "$1/pg_basebackup" ] && [ -x "$2" ] && [ -x /usr/bin/patroni ] && [ -x /usr/bin/etcd ] && [ -x /usr/sbin/haproxy ] && exit 0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    trap "rm -f /usr/sbin/policy-rc.d" EXIT
  fi
  apt-get update -qq && apt-get install -y -qq --no-install-recommends $3 >/dev/null
' ensure-binaries "$PG_BIN" "$PGBOUNCER" "$PACKAGES" || {
  if [ -x "$PG_BIN/pg_basebackup" ] && [ -x "$PGBOUNCER" ]; then
    # The replica and PgBouncer tests can still run; the failover tests skip themselves and say what is missing.
    echo "ensure-binaries: SKIPPED: apt-get could not install patroni, etcd-server and haproxy; the failover tests will be skipped" >&2
    exit 0
  fi
  echo "ensure-binaries: FAILED: apt-get could not install $PACKAGES" >&2
  exit 1
}
echo "ensure-binaries: $("$PG_BIN/postgres" --version), $("$PGBOUNCER" --version | head -1), $(patroni --version), $(/usr/bin/etcd --version | head -1), $(/usr/sbin/haproxy -v | head -1) installed" >&2
