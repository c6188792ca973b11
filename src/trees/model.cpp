// The linear cost model (Traff 2018, §2.1).
#include "optcoll/trees/model.hpp"

#include <cmath>
#include <string>

#include "optcoll/error.hpp"

namespace optcoll::trees {
namespace {

void check_param(double x, const char* what) {
  if (!std::isfinite(x) || x < 0)
    throw Error(Errc::invalid_count, std::string("cost model: ") + what + " must be finite and >= 0");
}

}  // namespace

CostModel CostModel::homogeneous(double alpha, double beta, double gamma) {
  check_param(alpha, "alpha");
  check_param(beta, "beta");
  check_param(gamma, "gamma");
  CostModel c;
  c.alpha0_ = alpha;
  c.beta0_ = beta;
  c.gamma0_ = gamma;
  return c;
}

CostModel CostModel::pairwise(rank_t p, std::vector<double> alpha, std::vector<double> beta,
                              std::vector<double> gamma) {
  if (p < 1) throw Error(Errc::invalid_p, "cost model: p must be >= 1");
  const auto pp = static_cast<std::size_t>(p) * static_cast<std::size_t>(p);
  if (alpha.size() != pp || beta.size() != pp || gamma.size() != static_cast<std::size_t>(p))
    throw Error(Errc::invalid_count, "cost model: alpha and beta need p*p entries, gamma p");
  for (double x : alpha) check_param(x, "alpha");
  for (double x : beta) check_param(x, "beta");
  for (double x : gamma) check_param(x, "gamma");
  CostModel c;
  c.p_ = p;
  c.alpha_ = std::move(alpha);
  c.beta_ = std::move(beta);
  c.gamma_ = std::move(gamma);
  return c;
}

}  // namespace optcoll::trees
