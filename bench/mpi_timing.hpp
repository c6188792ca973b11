// Helpers of the MPI benchmarks (mpi_bcast_reduce, mpi_collectives,
// mpi_alltoall, mpi_gatherv, smpi/collectives): batches after a barrier, maximum over ranks,
// medians, size ladders, command lines, the MPI part of the CSV metadata.
#pragma once

#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "csv.hpp"

namespace optcoll::bench {

inline int g_rank = 0;
inline int g_size = 1;

// The CSV metadata only MPI knows: the library and its version (the first
// line of MPI_Get_library_version; the native times are that library's)
// and the number of ranks.
inline Meta mpi_meta() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(version, &len);
  std::string v(version, static_cast<std::size_t>(std::max(len, 0)));
  v = v.substr(0, v.find('\n'));
  while (!v.empty() && (v.back() == ' ' || v.back() == '\0' || v.back() == '\r')) v.pop_back();
  return {{"mpi", v}, {"ranks", std::to_string(g_size)}};
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline int g_batch = 1;  // calls per sample

inline int batch_for(std::int64_t bytes) {
  if (bytes <= (8 << 10)) return 32;
  if (bytes <= (128 << 10)) return 8;
  if (bytes <= (1 << 20)) return 2;
  return 1;
}

// This rank's time per call of a batch of g_batch calls after a barrier.
template <class F>
double timed_local(F&& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < g_batch; ++i) f();
  return (MPI_Wtime() - t0) / g_batch;
}

// Time per call of a batch of g_batch calls after a barrier, maximum over
// ranks.
template <class F>
double timed(F&& f) {
  double t = timed_local(f);
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

inline int reps_for(std::int64_t bytes, int base) {
  if (bytes <= (64 << 10)) return base;
  if (bytes <= (1 << 20)) return std::max(base / 2, 9);
  return std::max(base / 4, 7);
}

inline std::vector<std::int64_t> sizes(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> s;
  for (std::int64_t b = lo; b <= hi; b *= 4) s.push_back(b);
  if (s.empty() || s.back() != hi) s.push_back(hi);
  return s;
}

inline std::string human(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= (1 << 10) && b % (1 << 10) == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

// A benchmark's command line: options with a value (--min 8) and flags.
class Args {
 public:
  Args& value(std::string name, std::int64_t& v) {
    return add(std::move(name), [&v](const std::string& s) { v = std::atoll(s.c_str()); });
  }
  Args& value(std::string name, int& v) {
    return add(std::move(name), [&v](const std::string& s) { v = std::atoi(s.c_str()); });
  }
  Args& value(std::string name, std::string& v) {
    return add(std::move(name), [&v](const std::string& s) { v = s; });
  }
  Args& values(std::string name, std::vector<double>& v) {  // repeatable
    return add(std::move(name), [&v](const std::string& s) { v.push_back(std::atof(s.c_str())); });
  }
  Args& flag(std::string name, bool& v) {
    opts_.push_back({std::move(name), [&v](const std::string&) { v = true; }, false});
    return *this;
  }
  // False, with `usage` on rank 0's stderr, for an unknown option or a
  // missing value.
  bool parse(int argc, char** argv, const char* usage) const {
    for (int i = 1; i < argc; ++i) {
      const Opt* o = nullptr;
      for (const Opt& x : opts_)
        if (x.name == argv[i]) o = &x;
      if (o == nullptr || (o->takes_value && i + 1 >= argc)) {
        if (g_rank == 0) fmt::print(stderr, "usage: {}\n", usage);
        return false;
      }
      o->set(o->takes_value ? std::string(argv[++i]) : std::string());
    }
    return true;
  }

 private:
  struct Opt {
    std::string name;
    std::function<void(const std::string&)> set;
    bool takes_value = true;
  };
  Args& add(std::string name, std::function<void(const std::string&)> set) {
    opts_.push_back({std::move(name), std::move(set), true});
    return *this;
  }
  std::vector<Opt> opts_;
};

}  // namespace optcoll::bench
