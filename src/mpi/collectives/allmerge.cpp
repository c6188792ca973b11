// Merge all-reduction (Lang 2025): every rank holds a sorted run of keys of
// any length; every rank ends with the sorted union (duplicates kept).
//
// The "circulant" (Lang's Algorithm 2) and "bruck" (Algorithm 1) variants
// are the registry's allreduce plans, `allreduce/dissemination` and
// `allreduce/bruck`, walked with MergeRounds: the same per-round partners and
// buffers (the plan's whole-vector runs: V/D, W/S1, I/S2, Pa), but a buffer
// is a sorted run whose length grows, combining is merging (a commutative
// operator, which these plans require), and a message is preceded by a
// header with the length of each run it holds. The messages go through the
// MpiExecutor like every collective's. So the merge variants share the
// plans the simulator verifies for every p and the executor, and only the
// data handling is new.
// The "allgatherv" baseline gathers every run (optcoll's allgatherv) and
// merges them pairwise bottom-up with two ping-pong buffers.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/collectives/collectives.hpp"
#include "mpi/collectives/rooted/tree_run.hpp"
#include "optcoll/plan/executor.hpp"

namespace optcoll::mpi {
namespace {

using Bytes = std::vector<std::byte>;

// The registry plan's rounds with merge runs as the data: the plan's walk
// (plan::run) hands each round's runs here, and wait() moves them with
// run_plan() on the communicator's MpiExecutor, the one that runs every
// other collective (its chunking, tags, blocking form and progress of
// running requests), as one-round compiled plans (plan::compile_exchange)
// over an arena of bytes:
// first each run's length (the header: the receiver learns its lengths
// only from the sender), then the runs back to back. What is Allmerge's own
// is the data: a buffer is a sorted run that grows, and combining is
// merging.
class MergeRounds final : public plan::Executor {
 public:
  MergeRounds(CommState& s, std::int64_t key_bytes, detail::MergeFn merge, const void* ctx, std::int64_t all)
      : s_(s), cfg_(tree_config(s)), key_(key_bytes), merge_(merge), ctx_(ctx), all_(all) {}

  Bytes& buffer(std::int64_t id) { return bufs_[static_cast<std::size_t>(id)]; }

  // The round's posts, collected as the plan's Step (capacity kept).
  void send(plan::rank_t to, std::span<const plan::BlockRun> runs) override {
    step_.send_to = to;
    step_.send.assign(runs.begin(), runs.end());
  }
  void recv(plan::rank_t from, std::span<const plan::BlockRun> runs, plan::Action action) override {
    step_.recv_from = from;
    step_.recv.assign(runs.begin(), runs.end());
    step_.on_recv = action;
  }
  void local(const plan::LocalOp& op) override { step_.local.push_back(op); }

  void wait() override {
    const std::size_t n_out = step_.send_to >= 0 ? step_.send.size() : 0;
    const std::size_t n_in = step_.recv_from >= 0 ? step_.recv.size() : 0;
    // The header: run lengths in bytes, this rank's [0, n_out), the peer's after.
    header_.assign(n_out + n_in, 0);
    std::int64_t out_bytes = 0;
    for (std::size_t k = 0; k < n_out; ++k) {
      header_[k] = static_cast<std::int64_t>(buffer(id(step_.send[k])).size());
      out_bytes += header_[k];
    }
    exchange(header_.data(), words(n_out), words(n_in));
    std::int64_t in_bytes = 0;
    for (std::size_t k = n_out; k < n_out + n_in; ++k) {
      if (header_[k] < 0 || header_[k] % key_ != 0)
        throw MpiError(MPI_ERR_INTERN, "optcoll: allmerge: corrupt message header");
      in_bytes += header_[k];
    }
    // The runs: this rank's at [0, out_bytes), the peer's after.
    arena_.resize(static_cast<std::size_t>(out_bytes + in_bytes));
    std::byte* at = arena_.data();
    for (std::size_t k = 0; k < n_out; ++k) at = std::ranges::copy(buffer(id(step_.send[k])), at).out;
    exchange(arena_.data(), out_bytes, in_bytes);
    for (std::size_t k = 0; k < n_in; ++k) {
      const std::int64_t h = header_[n_out + k];
      Bytes& own = buffer(id(step_.recv[k]));
      if (step_.on_recv == plan::Action::copy)
        own.assign(at, at + h);
      else
        own = merged(at, h, own.data(), static_cast<std::int64_t>(own.size()));
      at += h;
    }
    for (const plan::LocalOp& op : step_.local) {
      Bytes& to = buffer(id(op.to));
      const Bytes& from = buffer(id(op.from));
      if (op.action == plan::Action::copy)
        to = from;
      else
        to = merged(from.data(), static_cast<std::int64_t>(from.size()), to.data(),
                    static_cast<std::int64_t>(to.size()));
    }
    step_.clear();
  }

 private:
  // The buffer a plan's whole-vector run names.
  std::int64_t id(const plan::BlockRun& r) const {
    if (r.count != all_ || r.first % all_ != 0 || r.first / all_ >= 4)
      throw Error(Errc::internal, "allmerge: the plan names part of a buffer");
    return r.first / all_;
  }
  Bytes merged(const std::byte* a, std::int64_t a_bytes, const std::byte* b, std::int64_t b_bytes) const {
    Bytes out(static_cast<std::size_t>(a_bytes + b_bytes));
    merge_(a, a_bytes / key_, b, b_bytes / key_, out.data(), ctx_);
    return out;
  }
  static std::int64_t words(std::size_t n) { return static_cast<std::int64_t>(n) * 8; }
  // One round through the executor: bytes [0, out) of data to the step's
  // send_to, [out, out + in) from its recv_from.
  void exchange(void* data, std::int64_t out, std::int64_t in) {
    plan::compile_exchange(step_.send_to, {0, out}, step_.recv_from, {out, in}, out + in, round_);
    run_plan(s_, round_, cfg_, data);
  }

  CommState& s_;
  ExecConfig cfg_;  // bytes
  std::int64_t key_;
  detail::MergeFn merge_;
  const void* ctx_;
  std::int64_t all_;
  Bytes bufs_[4];
  plan::Step step_;
  std::vector<std::int64_t> header_;
  Bytes arena_;
  plan::Compiled round_;
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
  allgatherv_impl(mine.data(), own, MPI_BYTE, a.data(), counts, std::span(displs).first(p), MPI_BYTE, comm, {},
                  nullptr);
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
  MergeRounds rounds(s, key_bytes, merge, ctx, c.size);
  rounds.buffer(0).assign(mine.begin(), mine.end());
  plan::run(*rp, rounds);
  release_call_buffers(s);
  return std::move(rounds.buffer(0));
}

}  // namespace optcoll::mpi

namespace optcoll::detail {

std::vector<std::byte> allmerge_bytes(std::span<const std::byte> mine, std::int64_t key_bytes, MergeFn merge,
                                      const void* ctx, MPI_Comm comm, std::string_view algorithm) {
  return mpi::allmerge_impl(mine, key_bytes, merge, ctx, comm, algorithm);
}

}  // namespace optcoll::detail
