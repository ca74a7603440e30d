#!/usr/bin/env bash
# Runs before the tests (`pnpm test`): the system tools and servers they talk to must be here.
# As root on Debian it installs and starts what is missing; anywhere else it stops with the exact
# command that would. Nothing is mocked in the tests, so nothing is skipped here.
set -euo pipefail

packages=()
command -v chromium >/dev/null || packages+=(chromium)
command -v soffice >/dev/null || packages+=(libreoffice-nogui)
langs=$(tesseract --list-langs 2>/dev/null || true)
command -v tesseract >/dev/null || packages+=(tesseract-ocr)
for lang in eng jpn jpn_vert chi_sim chi_tra osd; do
  grep -qx "$lang" <<<"$langs" || packages+=("tesseract-ocr-${lang//_/-}")
done
command -v pdftotext >/dev/null || packages+=(poppler-utils)
# tiffcp joins single-page scans into the multi-page fax TIFFs of the TIFF tests
command -v tiffcp >/dev/null || packages+=(libtiff-tools)
ls /usr/share/fonts/opentype/noto/NotoSansCJK-* >/dev/null 2>&1 || packages+=(fonts-noto-cjk)
command -v redis-server >/dev/null && command -v redis-cli >/dev/null || packages+=(redis-server)
command -v pg_ctlcluster >/dev/null && command -v psql >/dev/null || packages+=(postgresql)

can_install=false
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && can_install=true

if [ ${#packages[@]} -gt 0 ]; then
  install_line="apt-get install -y --no-install-recommends ${packages[*]}"
  if ! $can_install; then
    echo "system check: the tests need Debian packages that are missing. Install them with:" >&2
    echo "  sudo apt-get update && sudo $install_line" >&2
    exit 1
  fi
  echo "system check: installing ${packages[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# Redis on 127.0.0.1:6379 (no persistence: tests use unique queue names and clean up).
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "system check: starting redis-server on 127.0.0.1:6379" >&2
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in 1 2 3 4 5 6 7 8 9 10; do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "system check: Redis does not answer on 127.0.0.1:6379. Start it with:" >&2
  echo "  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no" >&2
  exit 1
fi

# PostgreSQL on 127.0.0.1:5432, user postgres without a password, database `test`.
pg_ok() { psql -h 127.0.0.1 -p 5432 -U postgres -d test -Atqc 'select 1' >/dev/null 2>&1; }
if ! pg_ok && $can_install; then
  cluster=$(ls /etc/postgresql | sort -V | tail -n 1)
  pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 ||
    pg_ctlcluster --skip-systemctl-redirect "$cluster" main start
  hba="/etc/postgresql/$cluster/main/pg_hba.conf"
  if ! grep -Eq '^host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
    echo "system check: trusting local TCP connections to PostgreSQL (the tests' database)" >&2
    sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$cluster" main reload
  fi
  su postgres -c "psql -Atqc \"select 1 from pg_database where datname = 'test'\"" | grep -q 1 ||
    su postgres -c 'createdb test'
fi
if ! pg_ok; then
  echo "system check: PostgreSQL does not accept 'psql -h 127.0.0.1 -U postgres -d test'. As root:" >&2
  echo "  pg_ctlcluster \$(ls /etc/postgresql) main start && su postgres -c 'createdb test'" >&2
  echo "  and a 'host all all 127.0.0.1/32 trust' line at the top of pg_hba.conf" >&2
  exit 1
fi
