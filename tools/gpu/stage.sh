#!/usr/bin/env bash
# Stages what tools/gpu/device_check.sh needs on a GPU machine that has CUDA but not this
# project's build dependencies: the CLI, the cuda provider (and FAULT_LIB, a provider with a
# planted fault, if given), the shared libraries ldd finds outside the base system, the default
# suites, the GPU benchmark cases and the peer script.
#   tools/gpu/stage.sh BUILD_DIR TARGET_DIR [FAULT_LIB]
set -eu
build=$1 target=$2 fault=${3:-}
source=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$target"
mkdir -p "$target/bin" "$target/lib" "$target/tools" "$target/bench"
cp "$build/bin/aclnn-check" "$build/bin/libaclnn_cuda.so" "$build/bin/libaclnn_cpu.so" "$target/bin/"
if [ -n "$fault" ]; then mkdir -p "$target/bin/fault" && cp "$fault" "$target/bin/fault/libaclnn_cuda.so"; fi
# Libraries of the build's dependencies (HDF5, Highway, Google Benchmark, ...), not libc's or CUDA's.
ldd "$build/bin/aclnn-check" "$build/bin/libaclnn_cuda.so" | awk '/=> \//{print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|librt|libpthread|libresolv|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$target/lib/"; done
# Debug info would be most of the bytes that travel.
strip --strip-debug "$target"/bin/* "$target"/lib/* 2>/dev/null || true
if [ -d "$target/bin/fault" ]; then strip --strip-debug "$target"/bin/fault/*; fi
cp -r "$source/cases" "$target/cases"
cp -r "$source/bench/cases_gpu" "$target/bench/cases_gpu"
cp "$source/tools/gpu_peers.py" "$source/tools/bench_table.py" "$target/tools/"
cp "$source/tools/gpu/device_check.sh" "$target/"
du -sh "$target"
