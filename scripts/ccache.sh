# Sourced by the build scripts: `launcher` holds the CMake arguments that
# put ccache in front of the compilers (empty where ccache is missing).
# Paths are hashed relative to the source tree, so that build directories of
# the same compiler and flags share objects: ./build-mpich reuses ./build's
# MPI-free objects, ./build-asan-mpich reuses ./build-asan's.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
