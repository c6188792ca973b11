// Error contract: the library reports failures as codes (Errc); the C++ API
// wraps them in optcoll::Error; the MPI layer maps them to MPI error classes.
#pragma once

#include <stdexcept>
#include <string>

namespace optcoll {

enum class Errc {
  ok = 0,
  invalid_p,         // process count outside [1, 2^31-1]
  invalid_root,      // root outside [0, p)
  invalid_rank,      // rank outside [0, p)
  invalid_count,     // negative or otherwise impossible count / block count
  invalid_argument,  // an argument names nothing that exists (an unknown algorithm)
  internal,          // a verified invariant failed: a bug in optcoll
  mpi,               // an MPI call failed or an MPI argument is invalid (optcoll::MpiError)
};

const char* to_string(Errc e) noexcept;

class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& what) : std::runtime_error(what), code_(code) {}
  Errc code() const noexcept { return code_; }

 private:
  Errc code_;
};

}  // namespace optcoll
