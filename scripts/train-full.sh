#!/usr/bin/env bash
# The main job on the full Fashion-MNIST (60,000 + 10,000 images): installs Debian's
# dataset-fashion-mnist when it is missing, then trains the MLP, the CNN and the ResNet for 10 epochs each
# (the figures of docs/performance.md); the ResNet with SGD (momentum 0.9, weight decay 5e-4) and the cosine
# schedule, the others with Adam. Extra arguments go to every run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
DATA=/usr/share/datasets/fashion-mnist
[ -e "$DATA/train-images-idx3-ubyte.gz" ] || install_missing dataset-fashion-mnist
bash scripts/sample.sh --data "$DATA" --model mlp --epochs 10 --out fashion-mnist-out/mlp "$@"
bash scripts/sample.sh --data "$DATA" --model cnn --epochs 10 --out fashion-mnist-out/cnn "$@"
bash scripts/sample.sh --data "$DATA" --model resnet --epochs 10 --optimizer sgd --lr 0.1 --weight-decay 5e-4 --schedule cosine \
  --out fashion-mnist-out/resnet "$@"
