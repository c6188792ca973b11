#!/usr/bin/env bash
# clang-format all C++ sources; with --check, fail if any file is not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.hpp' '*.h')
if [ "${1:-}" = "--check" ]; then
  clang-format --dry-run --Werror "${files[@]}"
  echo "format check: ${#files[@]} files clean"
else
  clang-format -i "${files[@]}"
fi
