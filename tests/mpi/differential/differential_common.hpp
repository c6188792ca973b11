// Helpers of the differential driver's collectives (differential_colls.cpp,
// differential_reductions.cpp, differential_rooted.cpp): buffer salts, the
// C++ API's drawn options, the call's description, reporting, bytewise and
// floating-point comparisons.
#pragma once

#include <string>
#include <vector>

#include "differential_colls.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::differential {

using Bytes = std::vector<unsigned char>;

// Salts of a call's buffers (fill()).
std::uint64_t salt(const Call& c, std::uint64_t what, std::int64_t rank);

// The C++ API's options: the default (half the time) or a registry
// algorithm valid for the operator, and a forced block count now and then.
Options options_of(const Call& c, plan::Collective which);

// "<coll> comm=... size=... rank=... type=... count=... [op=...] root=..."
// and, with o, the algorithm and block count.
std::string describe(const Call& c, const char* coll, const Options* o);

// Counts a mismatch and prints it with the seed and call.
void report(const Call& c, Tally& t, const std::string& what, const std::string& detail);

// Compares got with want bytewise; reports the first difference.
void compare(const Call& c, Tally& t, const std::string& what, const char* buffer, const Bytes& got, const Bytes& want);

// Counts and prints an MPI error code rc != MPI_SUCCESS returned by `who`;
// returns whether rc is an error.
bool failed(const Call& c, Tally& t, const std::string& what, int rc, const char* who);

// Runs f (the optcoll call) and returns its MPI code; C++ exceptions become
// their code.
template <class F>
int guarded(F&& f) {
  try {
    return f();
  } catch (const MpiError& e) {
    return e.mpi_code();
  }
}

// Flips a byte of b when the call is the one the self-test corrupts.
void corrupt(const Call& c, Bytes& b);

// Per-rank counts of the v-variants (all ranks compute the same): zeros,
// equal and unequal parts, up to the call's count.
std::vector<std::int64_t> counts_of(const Call& c);

std::vector<int> to_int(const std::vector<std::int64_t>& v);

// Floating-point reductions. Where the combination order legitimately
// differs from native MPI's, a real field of the result may differ from the
// native one by at most 2 (p-1) eps sum_r |x_r| (each order's rounding error
// is at most (p-1) eps sum_r |x_r|, eps the type's unit roundoff, x_r rank
// r's operand): `bound` holds that per element and real field of the
// reduced vector (sum_r |x_r| by a native MPI_Allreduce of the absolute
// values); empty when the result must be exact (integer data, MAX, MIN).
struct Tolerance {
  std::vector<double> bound;
  std::size_t fields = 0;  // real fields per element
};
// Collective over c.comm: input is this rank's operand vector of `count`
// elements (the whole vector, for Reduce_scatter).
Tolerance tolerance(const Call& c, const Bytes& input, std::int64_t count);

// Like compare(), but real fields within tol (elements first, first, ...
// of the reduced vector); bytes outside the real fields exactly.
void compare_reduced(const Call& c, Tally& t, const std::string& what, const char* buffer, const Bytes& got,
                     const Bytes& want, const Tolerance& tol, std::int64_t first = 0);

// Every rank's data fields of got equal rank 0's bit for bit (collective
// over c.comm): for results that several ranks receive.
void compare_with_rank0(const Call& c, Tally& t, const std::string& what, const Bytes& got);

}  // namespace optcoll::differential
