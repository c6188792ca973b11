// Gather and scatter trees over MPI: buffers, layouts and the executor run
// of one rank (see tree_run.hpp).
#include "tree_run.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "collectives.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {
const TypeInfo& packed_type() {
  static const TypeInfo t = TypeInfo::of(MPI_PACKED);
  return t;
}

TreeRun::TreeRun(TreeArgs args, RankTree tree, const ExecConfig& cfg)
    : args_(std::move(args)), tree_(std::move(tree)), cfg_(cfg) {
  const std::int64_t chunk_bytes = cfg.chunk;
  const plan::TreeRankView& v = tree_.view;
  if (args_.is_root) {
    const TypeInfo& t = args_.all_type;
    // MPI allows negative displacements; layouts do not: the buffer's base
    // moves to the lowest one (empty groups never touch memory).
    std::int64_t low = 0;
    for (const plan::Segment& g : args_.groups)
      if (g.count > 0) low = std::min(low, g.offset);
    if (low < 0) {
      args_.all = offset(args_.all, low * t.extent);
      for (plan::Segment& g : args_.groups) g.offset = g.count > 0 ? g.offset - low : 0;
    }
    const auto p = static_cast<plan::rank_t>(args_.groups.size());
    std::int64_t largest = 0;
    for (std::size_t i = 0; i < v.down.size(); ++i) largest = std::max(largest, tree_.down_bytes[i]);
    // A non-contiguous type works in bytes as well: MPICH 4.0.2 fails
    // (MPI_ERR_IN_STATUS) to receive a packed message of some 10 KB and more
    // into a struct type with gaps, found by the differential driver's long
    // profile (seed 20261127, np 3, call 526); packing at the root costs one
    // local copy and works with both MPIs.
    const bool cuts_agree = t.size == 0 || chunk_bytes % t.size == 0 || largest <= chunk_bytes;
    std::vector<plan::Segment> g(static_cast<std::size_t>(p));
    if (cuts_agree && t.contiguous) {
      mode_ = Mode::root_typed;
      cfg_.type = t;
      cfg_.chunk = std::clamp<std::int64_t>(chunk_bytes / std::max<std::int64_t>(t.size, 1), 1, INT_MAX);
      for (plan::rank_t pos = 0; pos < p; ++pos)
        g[static_cast<std::size_t>(pos)] = args_.groups[static_cast<std::size_t>(rank_at(pos))];
    } else {
      // Bytes, packed in position order.
      mode_ = Mode::root_bytes;
      std::int64_t at = 0;
      for (plan::rank_t pos = 0; pos < p; ++pos) {
        const std::int64_t b = args_.groups[static_cast<std::size_t>(rank_at(pos))].count * t.size;
        g[static_cast<std::size_t>(pos)] = {at, b};
        at += b;
      }
      packed_bytes_ = at;
      own_group_ = tree_.self;
    }
    prepared_ = std::make_unique<PreparedPlan>(args_.op, v, plan::BlockLayout(std::move(g), 1));
    return;
  }
  // A non-root: local groups = its own block and its non-empty child
  // subtrees, in position order.
  const std::int64_t own = args_.mine_count * args_.mine_type.size;
  struct Item {
    plan::rank_t pos;
    std::int64_t bytes;
    std::int64_t link;  // -1: own block
  };
  std::vector<Item> items{{tree_.self, own, -1}};
  for (std::size_t i = 0; i < v.down.size(); ++i)
    items.push_back({v.down[i].lo, tree_.down_bytes[i], static_cast<std::int64_t>(i)});
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.pos < b.pos; });
  std::vector<plan::Segment> g(items.size());
  plan::TreeRankView local;
  local.rounds = v.rounds;
  local.down.resize(v.down.size());
  std::int64_t at = 0;
  for (std::size_t j = 0; j < items.size(); ++j) {
    g[j] = {at, items[j].bytes};
    at += items[j].bytes;
    const auto jj = static_cast<plan::rank_t>(j);
    if (items[j].link < 0) {
      own_group_ = jj;
    } else {
      const plan::TreeLink& l = v.down[static_cast<std::size_t>(items[j].link)];
      local.down[static_cast<std::size_t>(items[j].link)] = {l.peer, l.round, jj, jj};
    }
  }
  packed_bytes_ = at;
  if (v.up.peer >= 0) {
    if (at != tree_.up_bytes)
      throw MpiError(MPI_ERR_TRUNCATE, "optcoll: subtree sizes disagree (type signatures differ)");
    local.up = {v.up.peer, v.up.round, 0, static_cast<plan::rank_t>(items.size()) - 1};
  }
  mode_ = v.down.empty() && args_.mine_type.contiguous ? Mode::direct : Mode::packed;
  prepared_ = std::make_unique<PreparedPlan>(args_.op, std::move(local), plan::BlockLayout(std::move(g), 1));
}

std::byte* TreeRun::slot(std::int64_t group) const noexcept {
  return base_ + layout().group(group).offset;
}

const void* TreeRun::all_group(plan::rank_t r) const noexcept {
  return offset(args_.all, args_.groups[static_cast<std::size_t>(r)].offset * args_.all_type.extent);
}

plan::rank_t TreeRun::rank_at(plan::rank_t pos) const noexcept {
  return args_.order.empty() ? pos : args_.order[static_cast<std::size_t>(pos)];
}

void TreeRun::copy_in(ByteBuffer& tmp) {
  const bool gather = args_.op == plan::Collective::gather;
  const TypeInfo& t = args_.all_type;
  const plan::Segment& own = args_.is_root ? args_.groups[static_cast<std::size_t>(args_.rank)] : plan::Segment{};
  switch (mode_) {
    case Mode::root_typed:
      if (gather && args_.mine != nullptr)
        copy_typed(args_.mine, args_.mine_count, args_.mine_type, const_cast<void*>(all_group(args_.rank)), own.count,
                   t, tmp);
      break;
    case Mode::root_bytes:
      if (gather) {
        if (args_.mine != nullptr)
          pack_bytes(args_.mine, args_.mine_count, args_.mine_type, slot(own_group_));
        else
          pack_bytes(all_group(args_.rank), own.count, t, slot(own_group_));
      } else {
        for (plan::rank_t pos = 0; pos < layout().groups(); ++pos) {
          const plan::rank_t r = rank_at(pos);
          pack_bytes(all_group(r), args_.groups[static_cast<std::size_t>(r)].count, t, slot(pos));
        }
      }
      break;
    case Mode::packed:
      if (gather) pack_bytes(args_.mine, args_.mine_count, args_.mine_type, slot(own_group_));
      break;
    case Mode::direct:
      break;
  }
}

void TreeRun::copy_out(ByteBuffer& tmp) {
  const bool gather = args_.op == plan::Collective::gather;
  const TypeInfo& t = args_.all_type;
  switch (mode_) {
    case Mode::root_typed:
      if (!gather && args_.mine != nullptr)
        copy_typed(all_group(args_.rank), args_.groups[static_cast<std::size_t>(args_.rank)].count, t,
                   const_cast<void*>(args_.mine), args_.mine_count, args_.mine_type, tmp);
      break;
    case Mode::root_bytes:
      if (gather) {
        for (plan::rank_t pos = 0; pos < layout().groups(); ++pos) {
          const plan::rank_t r = rank_at(pos);
          if (r == args_.rank && args_.mine == nullptr) continue;  // in place: already there
          unpack_bytes(slot(pos), const_cast<void*>(all_group(r)), args_.groups[static_cast<std::size_t>(r)].count, t);
        }
      } else if (args_.mine != nullptr) {
        unpack_bytes(slot(own_group_), const_cast<void*>(args_.mine), args_.mine_count, args_.mine_type);
      }
      break;
    case Mode::packed:
      if (!gather) unpack_bytes(slot(own_group_), const_cast<void*>(args_.mine), args_.mine_count, args_.mine_type);
      break;
    case Mode::direct:
      break;
  }
}

void TreeRun::start(MpiExecutor& ex, Scratch& scratch, ByteBuffer& work) {
  scratch_ = &scratch;
  void* base = nullptr;
  switch (mode_) {
    case Mode::root_typed:
      base = const_cast<void*>(args_.all);
      break;
    case Mode::direct:
      base = const_cast<std::byte*>(offset(args_.mine, args_.mine_type.true_lb));
      break;
    case Mode::root_bytes:
    case Mode::packed:
      base = work.get(std::max<std::int64_t>(packed_bytes_, 1));
      break;
  }
  base_ = static_cast<std::byte*>(base);
  copy_in(scratch.copy);
  prepared_->bind(cfg_, {base}, ex, scratch);
  prepared_->start();
}

void TreeRun::complete() {
  prepared_->complete();
  copy_out(scratch_->copy);
}

bool TreeRun::test() {
  if (!prepared_->progress()) return false;
  copy_out(scratch_->copy);
  return true;
}

}  // namespace optcoll::mpi

namespace optcoll::mpi {

ExecConfig tree_config(const CommState& s) {
  return exec_config(s, packed_type(), MPI_OP_NULL);
}

RankTree binomial_rank_tree(plan::rank_t p, plan::rank_t root, plan::rank_t rank, std::int64_t b) {
  RankTree t;
  t.view = plan::binomial_view(p, root, rank);
  t.self = rank;
  for (const plan::TreeLink& l : t.view.down) t.down_bytes.push_back(b * (l.hi - l.lo + 1));
  if (t.view.up.peer >= 0) t.up_bytes = b * (t.view.up.hi - t.view.up.lo + 1);
  return t;
}

namespace {
bool listed(const std::string& name, const std::string& list) {
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t end = list.find(", ", at);
    if (end == std::string::npos) end = list.size();
    if (list.compare(at, end - at, name) == 0) return true;
    at = end + 2;
  }
  return false;
}
}  // namespace

void check_tree_algorithm(const std::string& name, const char* op, const char* valid) {
  if (name.empty() || listed(name, valid)) return;
  throw MpiError(MPI_ERR_ARG, "optcoll: unknown " + std::string(op) + " algorithm '" + name +
                                  "' (Options::algorithm); valid: " + valid);
}

std::string tree_algorithm(CommState& s, plan::Collective op, const std::string& requested, const char* valid) {
  if (!requested.empty()) return requested;
  const plan::AlgorithmInfo* a = env_algorithm(s, op);
  if (a == nullptr) return {};
  const std::string name(a->name);
  if (listed(name, valid)) return name;
  if (s.rank == 0 && !s.noted_fallback)
    std::fprintf(stderr, "optcoll: %s=%s does not apply to this call (it runs %s); using the default\n",
                 env_name(op).c_str(), name.c_str(), valid);
  s.noted_fallback = true;
  return {};
}

void release_call_buffers(CommState& s) noexcept {
  s.scratch.trim(kKeepCallBuffers);
  if (s.work.capacity() > kKeepCallBuffers) s.work.release();
}

}  // namespace optcoll::mpi
