// Merge all-reduction (Lang 2025): every rank holds a sorted run of keys of
// any length; every rank ends with the sorted union (duplicates kept).
//
// The "circulant" (Lang's Algorithm 2) and "bruck" (Algorithm 1) variants
// are the registry's allreduce plans, `allreduce/dissemination` and
// `allreduce/bruck`, run by a MergeExecutor: the same per-round partners and
// buffers (the plan's whole-vector runs: V/D, W/S1, I/S2, Pa), but a buffer
// is a sorted run whose length grows, combining is merging (a commutative
// operator, which these plans require), and a message carries a header with
// the length of each run it holds. So the merge variants share the plans
// the simulator verifies for every p, and only the data handling is new.
// The "allgatherv" baseline gathers every run (optcoll's allgatherv) and
// merges them pairwise bottom-up with two ping-pong buffers.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "collectives.hpp"
#include "optcoll/plan/executor.hpp"

namespace optcoll::mpi {
namespace {

using Bytes = std::vector<std::byte>;
constexpr std::int64_t kPiece = std::int64_t{1} << 30;  // bytes per MPI message

class MergeExecutor final : public plan::Executor {
 public:
  MergeExecutor(const CommState& s, std::int64_t key_bytes, detail::MergeFn merge, const void* ctx, std::int64_t all)
      : s_(s), key_(key_bytes), merge_(merge), ctx_(ctx), all_(all) {}

  Bytes& buffer(std::int64_t id) { return bufs_[static_cast<std::size_t>(id)]; }

  void send(plan::rank_t to, std::span<const plan::BlockRun> runs) override {
    send_to_ = static_cast<int>(to);
    send_.assign(runs.begin(), runs.end());
  }
  void recv(plan::rank_t from, std::span<const plan::BlockRun> runs, plan::Action action) override {
    recv_from_ = static_cast<int>(from);
    recv_.assign(runs.begin(), runs.end());
    action_ = action;
  }
  void local(const plan::LocalOp& op) override { locals_.push_back(op); }

  void wait() override {
    std::vector<MPI_Request> reqs;
    std::vector<std::int64_t> out_header;
    Bytes out;
    if (send_to_ >= 0) {  // header: run lengths in bytes; then the runs, back to back
      for (const plan::BlockRun& r : send_) {
        const Bytes& b = buffer(id(r));
        out_header.push_back(static_cast<std::int64_t>(b.size()));
        out.insert(out.end(), b.begin(), b.end());
      }
      post(true, send_to_, out_header.data(), static_cast<std::int64_t>(out_header.size() * 8), reqs);
      post(true, send_to_, out.data(), static_cast<std::int64_t>(out.size()), reqs);
    }
    if (recv_from_ >= 0) {
      std::vector<std::int64_t> header(recv_.size());
      std::vector<MPI_Request> r;
      post(false, recv_from_, header.data(), static_cast<std::int64_t>(header.size() * 8), r);
      wait_all(r, s_.wait, s_.spin);
      std::int64_t total = 0;
      for (std::int64_t h : header) {
        if (h < 0 || h % key_ != 0) throw MpiError(MPI_ERR_INTERN, "optcoll: allmerge: corrupt message header");
        total += h;
      }
      Bytes in(static_cast<std::size_t>(total));
      r.clear();
      post(false, recv_from_, in.data(), total, r);
      wait_all(r, s_.wait, s_.spin);
      std::int64_t at = 0;
      for (std::size_t k = 0; k < recv_.size(); ++k) {
        const auto h = static_cast<std::size_t>(header[k]);
        Bytes part(in.begin() + at, in.begin() + at + static_cast<std::ptrdiff_t>(h));
        at += header[k];
        Bytes& own = buffer(id(recv_[k]));
        if (action_ == plan::Action::copy)
          own = std::move(part);
        else
          own = merged(part, own);
      }
    }
    wait_all(reqs, s_.wait, s_.spin);
    for (const plan::LocalOp& op : locals_) {
      Bytes& to = buffer(id(op.to));
      if (op.action == plan::Action::copy)
        to = buffer(id(op.from));
      else
        to = merged(buffer(id(op.from)), to);
    }
    locals_.clear();
    send_to_ = recv_from_ = -1;
  }

 private:
  // The buffer a plan's whole-vector run names.
  std::int64_t id(const plan::BlockRun& r) const {
    if (r.count != all_ || r.first % all_ != 0 || r.first / all_ >= 4)
      throw Error(Errc::internal, "allmerge: the plan names part of a buffer");
    return r.first / all_;
  }
  Bytes merged(const Bytes& a, const Bytes& b) const {
    Bytes out(a.size() + b.size());
    merge_(a.data(), static_cast<std::int64_t>(a.size()) / key_, b.data(), static_cast<std::int64_t>(b.size()) / key_,
           out.data(), ctx_);
    return out;
  }
  // Bytes as messages of at most kPiece bytes (MPI counts are ints); empty
  // payloads are not sent (the header says so at both ends).
  void post(bool is_send, int peer, void* data, std::int64_t bytes, std::vector<MPI_Request>& reqs) const {
    for (std::int64_t done = 0; done < bytes; done += kPiece) {
      const int c = static_cast<int>(std::min(kPiece, bytes - done));
      MPI_Request r = MPI_REQUEST_NULL;
      std::byte* p = static_cast<std::byte*>(data) + done;
      if (is_send)
        check(PMPI_Isend(p, c, MPI_BYTE, peer, kTag, s_.comm, &r), "MPI_Isend");
      else
        check(PMPI_Irecv(p, c, MPI_BYTE, peer, kTag, s_.comm, &r), "MPI_Irecv");
      reqs.push_back(r);
    }
  }

  const CommState& s_;
  std::int64_t key_;
  detail::MergeFn merge_;
  const void* ctx_;
  std::int64_t all_;
  Bytes bufs_[4];
  int send_to_ = -1;
  int recv_from_ = -1;
  std::vector<plan::BlockRun> send_;
  std::vector<plan::BlockRun> recv_;
  plan::Action action_ = plan::Action::copy;
  std::vector<plan::LocalOp> locals_;
};

// Baseline: allgatherv of every run, then a bottom-up pairwise merge tree.
Bytes allgatherv_merge(CommState& s, std::span<const std::byte> mine, std::int64_t key_bytes, detail::MergeFn merge,
                       const void* ctx, MPI_Comm comm) {
  const auto p = static_cast<std::size_t>(s.size);
  std::vector<std::int64_t> counts(p);
  auto own = static_cast<std::int64_t>(mine.size());
  check(PMPI_Allgather(&own, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, s.comm), "MPI_Allgather");
  std::vector<std::int64_t> displs(p + 1, 0);
  for (std::size_t i = 0; i < p; ++i) displs[i + 1] = displs[i] + counts[i];
  Bytes a(static_cast<std::size_t>(displs[p]));
  allgatherv_impl(mine.data(), own, MPI_BYTE, a.data(), counts, std::span(displs).first(p), MPI_BYTE, comm, {});
  Bytes b(a.size());
  // Runs [displs[i], displs[i + width]) are sorted; merge neighbours.
  for (std::size_t width = 1; width < p; width *= 2) {
    for (std::size_t i = 0; i < p; i += 2 * width) {
      const std::size_t mid = std::min(i + width, p);
      const std::size_t end = std::min(i + 2 * width, p);
      const std::int64_t lo = displs[i];
      merge(a.data() + lo, (displs[mid] - lo) / key_bytes, a.data() + displs[mid],
            (displs[end] - displs[mid]) / key_bytes, b.data() + lo, ctx);
    }
    std::swap(a, b);
  }
  return a;
}

}  // namespace

std::vector<std::byte> allmerge_impl(std::span<const std::byte> mine, std::int64_t key_bytes, detail::MergeFn merge,
                                     const void* ctx, MPI_Comm comm, std::string_view algorithm) {
  const CallInfo c = check_call(comm, 0, MPI_BYTE, 0);
  if (key_bytes < 1 || static_cast<std::int64_t>(mine.size()) % key_bytes != 0)
    throw MpiError(MPI_ERR_ARG, "optcoll: allmerge: the input is not a whole number of keys");
  select::MergeChoice choice;
  try {
    choice = select::choose_allmerge(algorithm);
  } catch (const Error& e) {
    throw MpiError(MPI_ERR_ARG, e.what());
  }
  if (c.size == 1) return Bytes(mine.begin(), mine.end());
  CommState& s = c.comm_state(comm);
  if (choice.plan == nullptr) return allgatherv_merge(s, mine, key_bytes, merge, ctx, comm);
  // The plans on one element per rank: whole-vector runs of p blocks.
  plan::PlanSpec spec;
  spec.op = plan::Collective::allreduce;
  spec.p = c.size;
  spec.count = c.size;
  const plan::BlockLayout layout = plan::allreduce_layout(spec.count, spec.p, 1);
  plan::PlanContext pc{spec, &s.graph};
  pc.layout = &layout;
  const std::unique_ptr<plan::RankPlan> rp = choice.plan->make(pc, s.rank);
  MergeExecutor ex(s, key_bytes, merge, ctx, c.size);
  ex.buffer(0).assign(mine.begin(), mine.end());
  plan::run(*rp, ex);
  return std::move(ex.buffer(0));
}

}  // namespace optcoll::mpi

namespace optcoll::detail {

std::vector<std::byte> allmerge_bytes(std::span<const std::byte> mine, std::int64_t key_bytes, MergeFn merge,
                                      const void* ctx, MPI_Comm comm, std::string_view algorithm) {
  return mpi::allmerge_impl(mine, key_bytes, merge, ctx, comm, algorithm);
}

}  // namespace optcoll::detail
