// The argument agreement of OPTCOLL_CHECK=1 (agreement.hpp).
#include "mpi/checks/agreement.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "mpi/collectives/collectives.hpp"
#include "optcoll/select/settings.hpp"

namespace optcoll::mpi {
namespace {

std::atomic<std::int64_t> g_agreements{0};

// splitmix64's finaliser over a few words.
std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a * 0x9e3779b97f4a7c15u ^ (b + 0x632be59bd9b4e019u + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
std::uint64_t hash(std::uint64_t slot, std::uint64_t tag, std::uint64_t position, std::uint64_t value) {
  return mix(mix(mix(slot, tag), position), value);
}

// The predefined operators by a number that is the same in every process
// (their handles need not be); user operators by commutativity.
std::uint64_t op_id(MPI_Op op) {
  const MPI_Op predefined[] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                               MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  if (op == MPI_OP_NULL) return 0;
  for (std::size_t i = 0; i < std::size(predefined); ++i)
    if (op == predefined[i]) return 1 + i;
  int commutative = 0;
  if (PMPI_Op_commutative(op, &commutative) != MPI_SUCCESS) return 99;
  return commutative != 0 ? 100 : 101;
}

const char* what_differs(std::size_t slot) {
  switch (slot) {
    case 0:
      return "the ranks called different collectives";
    case 1:
      return "the ranks passed different roots";
    case 2:
      return "the ranks passed different operators";
    case 3:
      return "the counts do not match between the ranks";
    default:
      return "the datatype signatures do not match between the ranks";
  }
}

}  // namespace

std::int64_t agreements_run() noexcept {
  return g_agreements.load();
}

Agreement::Agreement(MPI_Comm comm, plan::Collective op) : comm_(comm), op_(op) {
  if (!select::check_enabled() || comm == MPI_COMM_NULL) return;
  const CommLookup l = look_up(comm);
  if (l.bad != nullptr) return;
  size_ = l.size;
  rank_ = l.rank;
  active_ = true;
  chain(kKind, 1, static_cast<std::uint64_t>(op) + 1);
}

void Agreement::chain(Slot s, std::uint64_t tag, std::uint64_t value) {
  const auto r = static_cast<std::uint64_t>(rank_);
  const auto p = static_cast<std::uint64_t>(size_);
  sums_[s] += hash(s, tag, r, value) - hash(s, tag, (r + 1) % p, value);
}

void Agreement::pair(int from, int to, const Signature& sig, bool sender) {
  const std::uint64_t at =
      static_cast<std::uint64_t>(from) * static_cast<std::uint64_t>(size_) + static_cast<std::uint64_t>(to);
  const std::uint64_t c = hash(kCount, 3, at, sig.length);
  const std::uint64_t t = hash(kType, 3, at, sig.hash);
  sums_[kCount] += sender ? c : 0 - c;
  sums_[kType] += sender ? t : 0 - t;
}

// A datatype whose signature cannot be read (invalid: the call's own checks
// report it at this rank) poisons the type slot, so that the others see a
// mismatch too.
Signature Agreement::signature_of(MPI_Datatype type, std::int64_t count) {
  try {
    return signature(type, count);
  } catch (const MpiError&) {
    return {~std::uint64_t{0}, static_cast<std::uint64_t>(rank_) + 0x5eed};
  }
}

void Agreement::same_root(int root) {
  if (active_) chain(kRoot, 1, static_cast<std::uint64_t>(static_cast<std::int64_t>(root)));
}

void Agreement::same_op(MPI_Op op) {
  if (active_) chain(kOp, 1, op_id(op));
}

void Agreement::same_count(std::int64_t n) {
  if (active_) chain(kCount, 1, static_cast<std::uint64_t>(n));
}

void Agreement::same_type(MPI_Datatype t) {
  if (!active_) return;
  const Signature s = signature_of(t, 1);
  chain(kType, 1, mix(s.length, s.hash));
}

void Agreement::same_counts(std::span<const std::int64_t> counts) {
  if (!active_) return;
  std::uint64_t h = counts.size();
  for (const std::int64_t c : counts) h = mix(h, static_cast<std::uint64_t>(c));
  chain(kCount, 2, h);
}

void Agreement::same_block(MPI_Datatype t, std::int64_t n) {
  if (!active_) return;
  const Signature s = signature_of(t, n);
  chain(kCount, 4, s.length);
  chain(kType, 4, s.hash);
}

void Agreement::sends(int to, MPI_Datatype t, std::int64_t n) {
  if (active_) pair(rank_, to, signature_of(t, n), true);
}

void Agreement::receives(int from, MPI_Datatype t, std::int64_t n) {
  if (active_) pair(from, rank_, signature_of(t, n), false);
}

void Agreement::agree() {
  if (local_) {
    int cls = local_->mpi_class();
    cls = cls < 0 ? MPI_ERR_OTHER : std::min(cls, 0xffff);
    sums_[kFailed] += 1;
    sums_[kFailedSum] += static_cast<std::uint64_t>(cls);
    sums_[kFailedSquares] += static_cast<std::uint64_t>(cls) * static_cast<std::uint64_t>(cls);
  }
  if (size_ > 1) {
    g_agreements.fetch_add(1, std::memory_order_relaxed);
    check(PMPI_Allreduce(MPI_IN_PLACE, sums_.data(), static_cast<int>(kSlots), MPI_UINT64_T, MPI_SUM, comm_),
          "MPI_Allreduce (OPTCOLL_CHECK)");
  }
  if (local_) throw *local_;
  const std::string name = "optcoll: OPTCOLL_CHECK: MPI_" + std::string(plan::to_string(op_)) + ": ";
  if (sums_[kKind] != 0) throw MpiError(MPI_ERR_OTHER, name + what_differs(kKind));
  // Ranks whose own checks failed (their contributions may be incomplete):
  // their class, if they all have the same.
  if (const std::uint64_t n = sums_[kFailed]; n != 0) {
    // (sum (c - m)^2 = 0 for m = sum / n; no overflow: c < 2^16, n < 2^31.)
    const std::uint64_t m = sums_[kFailedSum] / n;
    const bool same = m * n == sums_[kFailedSum] && sums_[kFailedSquares] == n * m * m;
    const int cls = same ? static_cast<int>(m) : MPI_ERR_OTHER;
    throw MpiError(cls, name + std::to_string(n) + " other rank(s) found their arguments invalid" +
                            (same ? "" : " (with different error classes)"));
  }
  static const int classes[] = {MPI_ERR_OTHER, MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_COUNT, MPI_ERR_TYPE};
  for (std::size_t s = kRoot; s <= kType; ++s)
    if (sums_[s] != 0) throw MpiError(classes[s], name + what_differs(s));
}

}  // namespace optcoll::mpi
