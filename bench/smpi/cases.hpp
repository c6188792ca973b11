// The operations of the SMPI benchmark: one Case per (operation,
// distribution, size) and rank, holding the buffers, the native MPI call,
// optcoll's call, and the part of the buffers that is this rank's result.
//
// Sizes ("bytes") are the whole vector of MPI_INT elements: the broadcast,
// reduced or scanned vector; the gathered / scattered / reduce-scattered
// vector of all ranks (p groups); for Alltoall(v) what one rank sends in
// total. Every group has at least one element. Distributions (the v
// variants; the others are "regular"): "irregular" gives rank i (i mod 3)
// units (Alltoallv: (i + j) mod 3 from i to j), "degenerate" puts the whole
// vector at rank p/2 (Allgatherv). Roots are rank 0.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "optcoll/optcoll.hpp"
#include "optcoll/plan/plan.hpp"

namespace optcoll::bench::smpi {

// MPI_INT elements; `shared`: SMPI's shared malloc (all ranks share the
// pages, contents are garbage), for payloads nobody checks.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }
  void allocate(std::int64_t elements, bool shared);
  void release() noexcept;
  int* data() const { return data_; }
  std::int64_t size() const { return size_; }

 private:
  int* data_ = nullptr;
  std::int64_t size_ = 0;
  bool shared_ = false;
};

struct Case {
  std::string op;
  std::string dist;
  std::int64_t bytes = 0;
  Buffer send;
  Buffer recv;
  std::vector<int> scounts, sdispls, rcounts, rdispls;  // v-variants (MPI's int arrays)
  std::function<void()> native;                         // MPI_<Op> (SMPI's, as selected)
  std::function<void(const Options&)> ours;             // optcoll::<op>
  std::int64_t result_first = 0;                        // this rank's result: recv[first, first + count)
  std::int64_t result_count = 0;
  bool root_input_in_recv = false;  // Bcast: the root's input is its recv buffer
  // Where set, this rank's expected result computed locally from the input
  // pattern (Scan, Exscan: SMPI's only implementation is linear, p^2/2
  // messages, minutes of simulation at p = 100 and 64 KiB); else a plain
  // SMPI algorithm computes it (native.hpp).
  std::function<std::vector<int>()> expected;
  // For optcoll::mpi::describe (no plan collective: gather/scatter trees,
  // alltoallv: none).
  bool describable = false;
  plan::Collective coll = plan::Collective::bcast;
  std::int64_t describe_count = 0;
  std::int64_t describe_smallest = -1;
  std::int64_t describe_total = -1;     // every group together (v-variants)
  std::int64_t describe_doubling = -1;  // plan::doubling_elements of the groups

  // Inputs get the deterministic pattern, results the sentinel.
  void prepare() const;
  std::span<int> result() const { return {recv.data() + result_first, static_cast<std::size_t>(result_count)}; }
};

// All operations, in the order of the report.
const std::vector<std::pair<std::string, std::string>>& all_operations();  // (op, dist)

// The buffers and calls of (op, dist) for `bytes` at this rank; shared:
// payloads in shared memory (no checking).
std::unique_ptr<Case> make_case(const std::string& op, const std::string& dist, std::int64_t bytes, bool shared);

// Bytes one rank allocates for the case (the larger of its buffers, both
// counted), to decide whether real memory for every rank fits.
std::int64_t case_bytes_per_rank(const std::string& op, const std::string& dist, std::int64_t bytes, int p);

}  // namespace optcoll::bench::smpi
