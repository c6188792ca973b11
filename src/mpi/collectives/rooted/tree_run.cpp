// Gather and scatter trees over MPI: buffers, layouts and the executor run
// of one rank (see tree_run.hpp).
#include "mpi/collectives/rooted/tree_run.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>

#include "mpi/collectives/collectives.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {
const TypeInfo& packed_type() {
  static const TypeInfo t = TypeInfo::of(MPI_PACKED);
  return t;
}

namespace {

enum class Mode : std::uint8_t { root_typed, root_bytes, direct, packed };

// What a tree run adds to its plan (tree_run.hpp): the working buffer and
// the copies into it before each run and out of it after. Shared by the
// run's two steps, so it lives as long as a request that keeps them.
struct Staging {
  TreeArgs args;
  Mode mode = Mode::packed;
  plan::BlockLayout layout;       // the plan's
  std::int64_t own_group = 0;     // local group of the own block (packed, root_bytes)
  std::int64_t packed_bytes = 0;  // size of the packed buffer
  std::byte* base = nullptr;      // the working buffer
  ByteBuffer* tmp = nullptr;      // the call's scratch for typed copies

  // The plan of tree at this rank; sets the mode, the layout and cfg's
  // type and chunk (cfg.chunk: bytes on entry).
  std::unique_ptr<PreparedPlan> prepare(RankTree tree, ExecConfig& cfg);
  void copy_in();
  void copy_out();
  std::byte* slot(std::int64_t group) const noexcept { return base + layout.group(group).offset; }
  const void* all_group(plan::rank_t r) const noexcept {
    return offset(args.all, args.groups[static_cast<std::size_t>(r)].offset * args.all_type.extent);
  }
  plan::rank_t rank_at(plan::rank_t pos) const noexcept {
    return args.order.empty() ? pos : args.order[static_cast<std::size_t>(pos)];
  }
};

std::unique_ptr<PreparedPlan> Staging::prepare(RankTree tree, ExecConfig& cfg) {
  const std::int64_t chunk_bytes = cfg.chunk;
  const plan::TreeRankView& v = tree.view;
  if (args.is_root) {
    const TypeInfo& t = args.all_type;
    // MPI allows negative displacements; layouts do not: the buffer's base
    // moves to the lowest one (empty groups never touch memory).
    std::int64_t low = 0;
    for (const plan::Segment& g : args.groups)
      if (g.count > 0) low = std::min(low, g.offset);
    if (low < 0) {
      args.all = offset(args.all, low * t.extent);
      for (plan::Segment& g : args.groups) g.offset = g.count > 0 ? g.offset - low : 0;
    }
    const auto p = static_cast<plan::rank_t>(args.groups.size());
    std::int64_t largest = 0;
    for (std::size_t i = 0; i < v.down.size(); ++i) largest = std::max(largest, tree.down_bytes[i]);
    // A non-contiguous type works in bytes as well: MPICH 4.0.2 fails
    // (MPI_ERR_IN_STATUS) to receive a packed message of some 10 KB and more
    // into a struct type with gaps, found by the differential driver's long
    // profile (seed 20261127, np 3, call 526); packing at the root costs one
    // local copy and works with both MPIs.
    const bool cuts_agree = t.size == 0 || chunk_bytes % t.size == 0 || largest <= chunk_bytes;
    std::vector<plan::Segment> g(static_cast<std::size_t>(p));
    if (cuts_agree && t.contiguous) {
      mode = Mode::root_typed;
      cfg.type = t;
      cfg.chunk = std::clamp<std::int64_t>(chunk_bytes / std::max<std::int64_t>(t.size, 1), 1, INT_MAX);
      for (plan::rank_t pos = 0; pos < p; ++pos)
        g[static_cast<std::size_t>(pos)] = args.groups[static_cast<std::size_t>(rank_at(pos))];
    } else {
      // Bytes, packed in position order.
      mode = Mode::root_bytes;
      std::int64_t at = 0;
      for (plan::rank_t pos = 0; pos < p; ++pos) {
        const std::int64_t b = args.groups[static_cast<std::size_t>(rank_at(pos))].count * t.size;
        g[static_cast<std::size_t>(pos)] = {at, b};
        at += b;
      }
      packed_bytes = at;
      own_group = tree.self;
    }
    layout = plan::BlockLayout(std::move(g), 1);
    return std::make_unique<PreparedPlan>(args.op, v, layout, tree.final_messages);
  }
  // A non-root: local groups = its own block and its non-empty child
  // subtrees, in position order.
  const std::int64_t own = args.mine_count * args.mine_type.size;
  struct Item {
    plan::rank_t pos;
    std::int64_t bytes;
    std::int64_t link;  // -1: own block
  };
  std::vector<Item> items{{tree.self, own, -1}};
  for (std::size_t i = 0; i < v.down.size(); ++i)
    items.push_back({v.down[i].lo, tree.down_bytes[i], static_cast<std::int64_t>(i)});
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
      own_group = jj;
    } else {
      const plan::TreeLink& l = v.down[static_cast<std::size_t>(items[j].link)];
      local.down[static_cast<std::size_t>(items[j].link)] = {l.peer, l.round, jj, jj};
    }
  }
  packed_bytes = at;
  if (v.up.peer >= 0) {
    if (at != tree.up_bytes)
      throw MpiError(MPI_ERR_TRUNCATE, "optcoll: subtree sizes disagree (type signatures differ)");
    local.up = {v.up.peer, v.up.round, 0, static_cast<plan::rank_t>(items.size()) - 1};
  }
  mode = v.down.empty() && args.mine_type.contiguous ? Mode::direct : Mode::packed;
  layout = plan::BlockLayout(std::move(g), 1);
  return std::make_unique<PreparedPlan>(args.op, std::move(local), layout, tree.final_messages);
}

void Staging::copy_in() {
  const bool gather = args.op == plan::Collective::gather;
  const TypeInfo& t = args.all_type;
  const plan::Segment& own = args.is_root ? args.groups[static_cast<std::size_t>(args.rank)] : plan::Segment{};
  switch (mode) {
    case Mode::root_typed:
      if (gather && args.mine != nullptr)
        copy_typed(args.mine, args.mine_count, args.mine_type, const_cast<void*>(all_group(args.rank)), own.count, t,
                   *tmp);
      break;
    case Mode::root_bytes:
      if (gather) {
        if (args.mine != nullptr)
          pack_bytes(args.mine, args.mine_count, args.mine_type, slot(own_group));
        else
          pack_bytes(all_group(args.rank), own.count, t, slot(own_group));
      } else {
        for (plan::rank_t pos = 0; pos < layout.groups(); ++pos) {
          const plan::rank_t r = rank_at(pos);
          pack_bytes(all_group(r), args.groups[static_cast<std::size_t>(r)].count, t, slot(pos));
        }
      }
      break;
    case Mode::packed:
      if (gather) pack_bytes(args.mine, args.mine_count, args.mine_type, slot(own_group));
      break;
    case Mode::direct:
      break;
  }
}

void Staging::copy_out() {
  const bool gather = args.op == plan::Collective::gather;
  const TypeInfo& t = args.all_type;
  switch (mode) {
    case Mode::root_typed:
      if (!gather && args.mine != nullptr)
        copy_typed(all_group(args.rank), args.groups[static_cast<std::size_t>(args.rank)].count, t,
                   const_cast<void*>(args.mine), args.mine_count, args.mine_type, *tmp);
      break;
    case Mode::root_bytes:
      if (gather) {
        for (plan::rank_t pos = 0; pos < layout.groups(); ++pos) {
          const plan::rank_t r = rank_at(pos);
          if (r == args.rank && args.mine == nullptr) continue;  // in place: already there
          unpack_bytes(slot(pos), const_cast<void*>(all_group(r)), args.groups[static_cast<std::size_t>(r)].count, t);
        }
      } else if (args.mine != nullptr) {
        unpack_bytes(slot(own_group), const_cast<void*>(args.mine), args.mine_count, args.mine_type);
      }
      break;
    case Mode::packed:
      if (!gather) unpack_bytes(slot(own_group), const_cast<void*>(args.mine), args.mine_count, args.mine_type);
      break;
    case Mode::direct:
      break;
  }
}

}  // namespace

void run_tree(detail::Persistent* into, CommState& s, TreeArgs a, RankTree t) {
  auto st = std::make_shared<Staging>();
  st->args = std::move(a);
  ExecConfig cfg = tree_config(s);
  std::unique_ptr<PreparedPlan> plan = st->prepare(std::move(t), cfg);
  switch (st->mode) {
    case Mode::root_typed:
      st->base = static_cast<std::byte*>(const_cast<void*>(st->args.all));
      break;
    case Mode::direct:
      st->base = const_cast<std::byte*>(offset(st->args.mine, st->args.mine_type.true_lb));
      break;
    case Mode::root_bytes:
    case Mode::packed:
      st->base = work_buffer(s, into).get(std::max<std::int64_t>(st->packed_bytes, 1));
      break;
  }
  st->tmp = &call_scratch(s, into).copy;
  before_each_run(into, [st] { st->copy_in(); });
  run_plan(into, s, std::move(plan), cfg, st->base);
  after_each_run(into, [st] { st->copy_out(); });
  if (into == nullptr) release_call_buffers(s);
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

RankTree leaders_rank_tree(const plan::NodeLayout& nodes, plan::rank_t root, plan::rank_t rank, std::int64_t b,
                           std::vector<plan::rank_t>* order) {
  const plan::LeadersTree tree(nodes, root);
  RankTree t;
  t.view = tree.view(rank);
  t.self = tree.position(rank);
  for (const plan::TreeLink& l : t.view.down) t.down_bytes.push_back(b * (l.hi - l.lo + 1));
  if (t.view.up.peer >= 0) t.up_bytes = b * (t.view.up.hi - t.view.up.lo + 1);
  if (order != nullptr) *order = tree.order();
  return t;
}

RankTree linear_rank_tree(plan::rank_t p, plan::rank_t root, plan::rank_t rank, std::span<const std::int64_t> all,
                          std::int64_t own) {
  const auto bytes = [&](plan::rank_t i) { return rank == root ? all[static_cast<std::size_t>(i)] : own; };
  RankTree t;
  t.view = plan::linear_view(p, root, rank, bytes);
  t.self = rank;
  t.final_messages = true;
  for (const plan::TreeLink& l : t.view.down) t.down_bytes.push_back(bytes(l.peer));
  if (t.view.up.peer >= 0) t.up_bytes = own;
  return t;
}

bool runs_linear(CommState& s, const std::string& name, plan::Collective op, bool v, std::int64_t block) {
  if (!name.empty()) return name == "linear";
  if (!v && op != plan::Collective::scatter) return false;
  const BlockModel& m = block_model(s);  // (calibrates: s.measured)
  if (v) return select::v_runs_linear(s.size, m.ab, s.measured.tree_small);
  return select::scatter_runs_linear(s.size, block, m.ab, s.measured.round_small, s.measured.tree_small);
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

}  // namespace optcoll::mpi
