#!/usr/bin/env bash
# Runs the txinbox sample: builds it, starts PostgreSQL and a new Payara Server domain (all on 127.0.0.1), deploys
# the EAR, sends a demo batch of orders and prints what became of it. Ctrl+C stops Payara, then PostgreSQL.
# Settings are environment variables: see ear-sample/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ "$#" -gt 0 ]; then
    echo "ear-sample/run.sh takes no arguments; its settings are environment variables: see ear-sample/README.md." >&2
    exit 2
fi
if ! command -v java >/dev/null 2>&1; then
    echo "The sample needs Java 17 or newer, and found no java on the PATH." >&2
    exit 2
fi
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [ -z "$java_major" ] || [ "${java_major%%.*}" -lt 17 ] 2>/dev/null; then
    echo "The sample needs Java 17 or newer; this java is version ${java_major:-unknown} ($(command -v java))." >&2
    exit 2
fi
if ! command -v mvn >/dev/null 2>&1; then
    echo "The sample needs Maven 3.8 or newer on the PATH (Debian: apt-get install maven)." >&2
    exit 2
fi

echo "Building the library and the sample with Maven (the first run downloads Payara Server and PostgreSQL: minutes)..."
log=$(mktemp)
set +e
mvn -B -DskipTests -pl ear-sample/sample-launcher -am package 2>&1 | tee "$log" \
    | sed -n -u 's/^\[INFO\] Building \(txinbox :: .*\) [0-9][^ ]* *\[[0-9/]*\]$/  \1/p'
built=${PIPESTATUS[0]}
set -e
if [ "$built" -ne 0 ]; then
    tail -n 40 "$log"
    echo "The build failed (exit $built); its whole output: $log" >&2
    exit 1
fi
rm -f "$log"

launcher=ear-sample/sample-launcher/target
mkdir -p "$launcher/tmp"
exec java -Djava.io.tmpdir="$launcher/tmp" -cp "$launcher/classes:$(cat "$launcher/classpath.txt")" \
    -Dsample.target="$launcher" io.github.txinbox.sample.launcher.SampleLauncher
