// libFuzzer target: gather/scatter tree construction (Träff 2018) on random
// block sizes and integral costs (so every time is exact and compared with
// ==):
//  - each construction's reported time equals the evaluator's
//    completion_time of its tree, and its own prediction;
//  - the optimal ordered tree is ordered, has the requested root, and is no
//    slower than any ordered tree the other constructions produce; the
//    table-keeping variant (OptimalTrees) agrees with it for the best and a
//    fixed root;
//  - the exhaustive non-ordered optimum (p <= 7) is no slower than the
//    ordered one; the non-homogeneous DP (p <= 7) reports its tree's time.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "fuzz_common.hpp"
#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

using namespace optcoll::trees;

namespace {

void check_result(const char* what, const TreeResult& r, std::span<const std::int64_t> m, const CostModel& model,
                  Direction d = Direction::gather) {
  const double t = completion_time(r.tree, m, model, d);
  FUZZ_CHECK(t == r.time, "%s: reported %.17g, evaluator %.17g (p=%zu)", what, r.time, t, m.size());
  FUZZ_CHECK(r.predicted == r.time, "%s: predicted %.17g, time %.17g (p=%zu)", what, r.predicted, r.time, m.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const auto p = in.ConsumeIntegralInRange<rank_t>(1, 24);
  std::vector<std::int64_t> m(static_cast<std::size_t>(p));
  const int shape = in.ConsumeIntegralInRange(0, 2);
  for (auto& x : m) {
    x = shape == 0   ? in.ConsumeIntegralInRange<std::int64_t>(0, 20)        // small, with zeros
        : shape == 1 ? in.ConsumeIntegralInRange<std::int64_t>(0, 1) * 1000  // spikes
                     : in.ConsumeIntegralInRange<std::int64_t>(0, 1 << 20);
  }
  const auto alpha = static_cast<double>(in.ConsumeIntegralInRange(0, 1000));
  const auto beta = static_cast<double>(in.ConsumeIntegralInRange(0, 8));
  const auto gamma = static_cast<double>(in.ConsumeIntegralInRange(0, 8));
  const CostModel model = CostModel::homogeneous(alpha, beta, gamma);
  const std::optional<rank_t> root =
      in.ConsumeBool() ? std::optional<rank_t>(in.ConsumeIntegralInRange<rank_t>(0, p - 1)) : std::nullopt;

  const TreeResult opt = optimal_tree(m, model, root);
  check_result("optimal", opt, m, model);
  FUZZ_CHECK(is_ordered(opt.tree), "optimal tree not ordered (p=%lld)", (long long)p);
  if (root)
    FUZZ_CHECK(opt.tree.root() == *root, "optimal root %lld, asked %lld", (long long)opt.tree.root(), (long long)*root);
  const OptimalTrees kept(m, model);
  const TreeResult kept_r = root ? kept.rooted(*root) : kept.best();
  check_result("OptimalTrees", kept_r, m, model);
  FUZZ_CHECK(kept_r.time == opt.time, "OptimalTrees %.17g vs optimal_tree %.17g", kept_r.time, opt.time);

  const TreeResult others[] = {linear(m, model, root), binomial(m, model, root), adaptive_binomial(m, model, root)};
  const char* names[] = {"linear", "binomial", "adaptive_binomial"};
  for (int i = 0; i < 3; ++i) {
    check_result(names[i], others[i], m, model);
    if (root) FUZZ_CHECK(others[i].tree.root() == *root, "%s root", names[i]);
    if (is_ordered(others[i].tree) && (!root || others[i].tree.root() == *root))
      FUZZ_CHECK(opt.time <= others[i].time, "optimal %.17g slower than ordered %s %.17g (p=%lld)", opt.time, names[i],
                 others[i].time, (long long)p);
  }
  const TreeResult bin = optimal_binary_tree(m, model, root);
  check_result("optimal_binary", bin, m, model);
  if (p <= 7) {
    const TreeResult any = optimal_unordered_tree(m, model, root);
    check_result("optimal_unordered", any, m, model);
    FUZZ_CHECK(any.time <= opt.time, "non-ordered optimum %.17g above ordered %.17g (p=%lld)", any.time, opt.time,
               (long long)p);
    std::vector<double> a(static_cast<std::size_t>(p * p)), b(a.size()), c(static_cast<std::size_t>(p));
    for (auto& x : a) x = static_cast<double>(in.ConsumeIntegralInRange(0, 100));
    for (auto& x : b) x = static_cast<double>(in.ConsumeIntegralInRange(0, 4));
    for (auto& x : c) x = static_cast<double>(in.ConsumeIntegralInRange(0, 4));
    const CostModel pw = CostModel::pairwise(p, a, b, c);
    const Direction d = in.ConsumeBool() ? Direction::gather : Direction::scatter;
    check_result("optimal_pairwise", optimal_tree_pairwise(m, pw, root, d), m, pw, d);
  }
  return 0;
}
