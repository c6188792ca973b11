// A few bytes from the root to every rank down a binomial tree, relayed by
// each rank while it waits for messages of its own (see rooted.hpp).
//
// Gatherv/Scatterv need it for the root's decision (gatherv_scatterv.cpp): only
// the root knows the counts, and the other ranks build the adaptive tree
// meanwhile. The tree is the binomial tree on ranks relative to the root
// (v = rank - root mod p): v's parent is v minus its lowest set bit, its
// children are v + 2^k for every 2^k below that bit (every 2^k < p at the
// root). It is sent to the largest subtree first, so the decision reaches
// every rank after ceil(log2 p) hops if each forwards it on arrival, which
// each does inside its waits (wait_relaying). MPI_Ibcast would do the same
// only if the library implements it as a tree and progresses it there;
// SimGrid's SMPI, for one, posts p - 1 sends at the root
// (docs/decisions/gatherv-scatterv-linear-or-tree.md).
#include <algorithm>
#include <array>

#include "mpi/collectives/rooted/rooted.hpp"

namespace optcoll::mpi {

Relay::Relay(const ExecConfig& e, plan::rank_t p, plan::rank_t rank, plan::rank_t root, void* data, int bytes)
    : e_(e), p_(p), root_(root), v_((rank - root + p) % p), data_(data), bytes_(bytes) {
  if (v_ == 0) {
    forward();
    return;
  }
  const plan::rank_t parent = (v_ - (v_ & -v_) + root_) % p_;
  check(PMPI_Irecv(data_, bytes_, MPI_BYTE, static_cast<int>(parent), e_.tag + 3, e_.comm, &recv_), "MPI_Irecv");
}

Relay::~Relay() {
  // Only after an error: a finished relay holds no request.
  if (recv_ != MPI_REQUEST_NULL) {
    PMPI_Cancel(&recv_);
    PMPI_Request_free(&recv_);
  }
  for (int i = 0; i < sends_; ++i)
    if (send_[static_cast<std::size_t>(i)] != MPI_REQUEST_NULL) PMPI_Request_free(&send_[static_cast<std::size_t>(i)]);
}

void Relay::forward() {
  // Children v + 2^k for 2^k below v's lowest set bit (any 2^k at the root),
  // largest subtree first.
  const plan::rank_t low = v_ == 0 ? (plan::rank_t{1} << 62) : (v_ & -v_);
  plan::rank_t step = 1;
  while (step * 2 < low && v_ + step * 2 < p_) step *= 2;
  for (; step >= 1; step /= 2) {
    if (step >= low || v_ + step >= p_) continue;
    const plan::rank_t child = (v_ + step + root_) % p_;
    MPI_Request& r = send_[static_cast<std::size_t>(sends_++)];
    check(PMPI_Isend(data_, bytes_, MPI_BYTE, static_cast<int>(child), e_.tag + 3, e_.comm, &r), "MPI_Isend");
  }
}

void Relay::wait_relaying(std::span<MPI_Request> requests) {
  if (recv_ == MPI_REQUEST_NULL) return wait_all(requests, e_.wait, e_.spin);
  // requests and the relay's receive in one array: whichever completes
  // first; the receive forwards at once.
  std::array<MPI_Request, kMaxWaited + 1> all{};
  if (requests.size() > kMaxWaited) throw Error(Errc::internal, "Relay: too many requests to wait for");
  std::copy(requests.begin(), requests.end(), all.begin());
  const auto n = static_cast<int>(requests.size());
  all[requests.size()] = recv_;
  int left = 0;
  for (const MPI_Request r : requests) left += r != MPI_REQUEST_NULL ? 1 : 0;
  std::array<int, kMaxWaited + 1> done{};
  while (left > 0) {
    bool arrived = false;
    const int k = wait_some({all.data(), requests.size() + 1}, done.data(), e_.wait, e_.spin);
    for (int i = 0; i < k; ++i) {
      if (done[static_cast<std::size_t>(i)] == n)
        arrived = true;
      else
        --left;
    }
    if (!arrived) continue;
    recv_ = MPI_REQUEST_NULL;  // arrived: forward it, then wait for the rest alone
    forward();
    std::copy(all.begin(), all.begin() + n, requests.begin());
    return wait_all(requests, e_.wait, e_.spin);
  }
  recv_ = all[requests.size()];
  std::copy(all.begin(), all.begin() + n, requests.begin());
}

void Relay::finish() {
  if (recv_ != MPI_REQUEST_NULL) {
    wait_all({&recv_, 1}, e_.wait, e_.spin);
    forward();
  }
  wait_all({send_.data(), static_cast<std::size_t>(sends_)}, e_.wait, e_.spin);
  sends_ = 0;
}

}  // namespace optcoll::mpi
