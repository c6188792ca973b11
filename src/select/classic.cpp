// The classic algorithms an MPI library runs, priced in the same alpha-beta
// model as optcoll's plans (select.hpp): what the drop-in's `auto` and the
// cost table compare optcoll with. The registry's baselines where a plan
// exists (their price functions), the closed forms of model/ otherwise.
#include <algorithm>

#include "optcoll/model/alltoall.hpp"
#include "optcoll/model/baselines.hpp"
#include "optcoll/select/select.hpp"

namespace optcoll::select {
namespace {

using plan::Collective;
using plan::Price;

Price from(const model::BaselinePrice& b) {
  return {b.time, b.rounds, b.blocks};
}

Price rounds_of(std::int64_t r, std::int64_t bytes, const model::AlphaBeta& ab) {
  return {static_cast<double>(r) * (ab.alpha + ab.beta * static_cast<double>(bytes)), r, 1};
}

// The registry's entries of op named `name`, priced for s.
Classic registry(Collective op, std::string_view name, const plan::Shape& s, const model::AlphaBeta& ab) {
  const plan::AlgorithmInfo* a = plan::find_algorithm(op, name);
  return {a->name, a->price(s, 0, ab)};
}

}  // namespace

std::vector<Classic> classics(const Call& c, const model::AlphaBeta& ab, std::span<const std::int64_t> group_bytes) {
  const plan::Shape s = shape_of(c);
  std::vector<Classic> out;
  if (c.p <= 1) return out;
  const auto baselines = [&](Collective op) {
    for (const plan::AlgorithmInfo& a : plan::algorithms())
      if (a.op == op && a.baseline && a.price != nullptr) out.push_back({a.name, a.price(s, 0, ab)});
  };
  switch (c.op) {
    case Collective::bcast:
      baselines(Collective::bcast);
      break;
    case Collective::reduce:
      // MPI libraries reduce with a non-commutative operator along a
      // rank-ordered tree only.
      if (!c.commutative) {
        out.push_back(registry(Collective::reduce, "binomial_ordered", s, ab));
        break;
      }
      baselines(Collective::reduce);
      out.push_back({"reduce_scatter_gather", from(model::price_scatter_allgather(c.p, s.m, ab))});
      break;
    case Collective::allgather:
    case Collective::reduce_scatter:
      // Ring: p-1 rounds, each carrying the largest group somewhere. Bruck
      // (and recursive doubling): q rounds moving what a rank lacks, priced
      // at that bound without the groups (exact for equal groups).
      if (!group_bytes.empty()) {
        const std::vector<std::int64_t> g(group_bytes.begin(), group_bytes.end());
        out.push_back({"ring", from(model::price_allgather_ring(g, ab))});
        out.push_back({"bruck", from(model::price_allgather_bruck(g, ab))});
        break;
      }
      out.push_back({"ring", rounds_of(c.p - 1, s.largest, ab)});
      out.push_back({"bruck", {s.q * ab.alpha + ab.beta * static_cast<double>(s.m - s.smallest), s.q, 1}});
      break;
    case Collective::allreduce:
      out.push_back({"ring", from(model::price_allreduce_ring(c.p, s.m, ab))});
      out.push_back({"recursive_doubling", from(model::price_allreduce_recursive_doubling(c.p, s.m, ab))});
      out.push_back({"rabenseifner", from(model::price_allreduce_rabenseifner(c.p, s.m, ab))});
      break;
    case Collective::scan:
    case Collective::exscan:
      // MPICH's recursive doubling and Open MPI's linear chain.
      out.push_back({"recursive_doubling", rounds_of(s.q, s.m, ab)});
      out.push_back({"linear", rounds_of(c.p - 1, s.m, ab)});
      break;
    case Collective::gather:
    case Collective::scatter:
      out.push_back(registry(c.op, "binomial", s, ab));
      // The linear algorithm with its messages o apart where the machine
      // knows o (as optcoll's gather/linear), else one alpha each.
      if (ab.o > 0)
        out.push_back(registry(c.op, "linear", s, ab));
      else
        out.push_back(
            {"linear",
             {static_cast<double>(c.p - 1) * ab.alpha + ab.beta * static_cast<double>(s.m - s.smallest), c.p - 1, 1}});
      break;
    case Collective::alltoall:
      out.push_back({"shift", {model::alltoall_shift_time(c.p, s.m, ab), c.p - 1, 1}});
      out.push_back({"bruck", {model::alltoall_bruck_time(c.p, s.m, ab), s.q, 1}});
      break;
    case Collective::alltoallv:
    case Collective::many_to_many:
      out.push_back({"shift", {model::alltoall_shift_time(c.p, s.m, ab), c.p - 1, 1}});
      break;
  }
  return out;
}

Classic best_classic(const Call& c, const model::AlphaBeta& ab, std::span<const std::int64_t> group_bytes) {
  const std::vector<Classic> all = classics(c, ab, group_bytes);
  if (all.empty()) return {"none", {}};
  return *std::min_element(all.begin(), all.end(),
                           [](const Classic& a, const Classic& b) { return a.price.time < b.price.time; });
}

}  // namespace optcoll::select
