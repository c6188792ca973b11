// Helpers of the differential driver's collectives (differential_common.hpp).
#include "differential_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace optcoll::differential {
namespace {

std::int64_t width(Field f) {
  switch (f) {
    case Field::i32:
    case Field::f32:
      return 4;
    case Field::i64:
    case Field::f64:
      return 8;
    case Field::u8:
      return 1;
  }
  return 0;
}

bool is_real(Field f) {
  return f == Field::f64 || f == Field::f32;
}

double value_at(const unsigned char* p, Field f) {
  if (f == Field::f32) {
    float x = 0;
    std::memcpy(&x, p, sizeof x);
    return x;
  }
  double x = 0;
  std::memcpy(&x, p, sizeof x);
  return x;
}

}  // namespace

std::uint64_t salt(const Call& c, std::uint64_t what, std::int64_t rank) {
  return mix(mix(static_cast<std::uint64_t>(c.index), what), static_cast<std::uint64_t>(rank));
}

Options options_of(const Call& c, plan::Collective which) {
  Options o;
  std::vector<std::string_view> names;
  for (const plan::AlgorithmInfo& a : plan::algorithms())
    if (a.op == which && (c.op == nullptr || c.op->commutative || !a.needs_commutative)) names.push_back(a.name);
  if (!names.empty() && c.algorithm_draw % 2 == 1)
    o.algorithm = std::string(names[(c.algorithm_draw / 2) % names.size()]);
  static const std::int64_t forced[] = {0, 0, 0, 1, 2, 3, 7, -1};
  const std::int64_t b = forced[c.blocks_draw % std::size(forced)];
  // One block per element (n - 1 + q rounds) only for small counts: a round
  // costs up to a millisecond on an oversubscribed node.
  o.blocks = b < 0 ? std::clamp<std::int64_t>(c.count, 1, 257) : b;
  return o;
}

std::string describe(const Call& c, const char* coll, const Options* o) {
  std::string s = std::string(coll) + " comm=" + c.comm_name + " size=" + std::to_string(c.size) +
                  " rank=" + std::to_string(c.rank) + " type=" + c.type->name + " count=" + std::to_string(c.count);
  if (c.op != nullptr) s += std::string(" op=") + c.op->name;
  s += " root=" + std::to_string(static_cast<std::int64_t>(c.root_draw % static_cast<std::uint64_t>(c.size)));
  s += c.in_place ? " in_place" : "";
  s += c.real ? " real_data" : "";
  s += c.cpp_api ? " api=c++" : " api=c";
  if (o != nullptr)
    s += " algorithm=" + (o->algorithm.empty() ? std::string("default") : o->algorithm) +
         " blocks=" + std::to_string(o->blocks);
  return s;
}

void report(const Call& c, Tally& t, const std::string& what, const std::string& detail) {
  ++t.mismatches;
  std::fprintf(stderr, "differential: MISMATCH seed=%llu call=%lld: %s: %s\n", static_cast<unsigned long long>(c.seed),
               static_cast<long long>(c.index), what.c_str(), detail.c_str());
}

void compare(const Call& c, Tally& t, const std::string& what, const char* buffer, const Bytes& got,
             const Bytes& want) {
  if (got == want) return;
  std::size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  const std::int64_t elem = static_cast<std::int64_t>(at) / c.type->extent;
  report(c, t, what,
         std::string(buffer) + " differs from native MPI at byte " + std::to_string(at) + " (element " +
             std::to_string(elem) + ", byte " + std::to_string(static_cast<std::int64_t>(at) % c.type->extent) +
             " of the extent): optcoll " + std::to_string(at < got.size() ? got[at] : -1) + ", native " +
             std::to_string(at < want.size() ? want[at] : -1));
}

bool failed(const Call& c, Tally& t, const std::string& what, int rc, const char* who) {
  if (rc == MPI_SUCCESS) return false;
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  ++t.errors;
  std::fprintf(stderr, "differential: ERROR seed=%llu call=%lld: %s: %s returned %s\n",
               static_cast<unsigned long long>(c.seed), static_cast<long long>(c.index), what.c_str(), who, msg);
  return true;
}

void corrupt(const Call& c, Bytes& b) {
  if (c.inject && !b.empty()) b[b.size() / 2] ^= 0x40;
}

std::vector<std::int64_t> counts_of(const Call& c) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(c.size));
  const std::uint64_t kind = mix(c.blocks_draw, 7) % 4;
  for (int g = 0; g < c.size; ++g) {
    const std::uint64_t h = mix(mix(c.blocks_draw, 11), static_cast<std::uint64_t>(g));
    v[static_cast<std::size_t>(g)] = kind == 0 ? c.count
                                     : kind == 1
                                         ? (h % 3 == 0 ? 0 : c.count)
                                         : static_cast<std::int64_t>(h % static_cast<std::uint64_t>(c.count + 1));
  }
  return v;
}

std::vector<int> to_int(const std::vector<std::int64_t>& v) {
  return {v.begin(), v.end()};
}

Tolerance tolerance(const Call& c, const Bytes& input, std::int64_t count) {
  Tolerance tol;
  const bool sums = c.op->name == "MPI_SUM" || c.op->name == "user_sum";
  if (!c.real || !sums) return tol;  // exact: integers, MAX, MIN
  std::vector<const FieldAt*> real;
  for (const FieldAt& f : c.type->fields)
    if (is_real(f.kind)) real.push_back(&f);
  tol.fields = real.size();
  tol.bound.resize(static_cast<std::size_t>(count) * real.size());
  for (std::int64_t e = 0; e < count; ++e)
    for (std::size_t k = 0; k < real.size(); ++k)
      tol.bound[static_cast<std::size_t>(e) * real.size() + k] =
          std::fabs(value_at(input.data() + e * c.type->extent + real[k]->offset, real[k]->kind));
  MPI_Allreduce(MPI_IN_PLACE, tol.bound.data(), static_cast<int>(tol.bound.size()), MPI_DOUBLE, MPI_SUM, c.comm);
  for (std::size_t i = 0; i < tol.bound.size(); ++i) {
    const double eps = real[i % real.size()]->kind == Field::f32 ? 0x1.0p-24 : 0x1.0p-53;
    // (1 + 1e-6): the absolute values' sum is itself rounded.
    tol.bound[i] *= 2.0 * (c.size - 1) * eps * (1 + 1e-6);
  }
  return tol;
}

void compare_reduced(const Call& c, Tally& t, const std::string& what, const char* buffer, const Bytes& got,
                     const Bytes& want, const Tolerance& tol, std::int64_t first) {
  if (tol.bound.empty() || got.size() != want.size()) return compare(c, t, what, buffer, got, want);
  Bytes exact = got;  // got with the real fields replaced by native's, compared bytewise after
  const std::int64_t count = static_cast<std::int64_t>(got.size()) / c.type->extent;
  bool reported = false;
  for (std::int64_t e = 0; e < count; ++e) {
    std::size_t k = 0;
    for (const FieldAt& f : c.type->fields) {
      if (!is_real(f.kind)) continue;
      const std::int64_t at = e * c.type->extent + f.offset;
      const double g = value_at(got.data() + at, f.kind);
      const double w = value_at(want.data() + at, f.kind);
      const double b = tol.bound[static_cast<std::size_t>(first + e) * tol.fields + k++];
      if (!reported && !(std::fabs(g - w) <= b)) {
        char detail[256];
        std::snprintf(
            detail, sizeof detail,
            "%s element %lld, byte %lld of the extent: optcoll %.17g, native %.17g, beyond the tolerance %.3g", buffer,
            static_cast<long long>(e), static_cast<long long>(f.offset), g, w, b);
        report(c, t, what, detail);
        reported = true;
      }
      std::memcpy(exact.data() + at, want.data() + at, static_cast<std::size_t>(width(f.kind)));
    }
  }
  if (!reported) compare(c, t, what, buffer, exact, want);
}

void compare_with_rank0(const Call& c, Tally& t, const std::string& what, const Bytes& got) {
  Bytes zero = got;
  MPI_Bcast(zero.data(), static_cast<int>(zero.size()), MPI_BYTE, 0, c.comm);
  const std::int64_t count = static_cast<std::int64_t>(got.size()) / c.type->extent;
  for (std::int64_t e = 0; e < count; ++e)
    for (const FieldAt& f : c.type->fields) {
      const std::int64_t at = e * c.type->extent + f.offset;
      if (std::memcmp(got.data() + at, zero.data() + at, static_cast<std::size_t>(width(f.kind))) == 0) continue;
      char detail[200];
      std::snprintf(detail, sizeof detail,
                    "the result differs from rank 0's bit for bit at element %lld, byte %lld of the extent",
                    static_cast<long long>(e), static_cast<long long>(f.offset));
      report(c, t, what, detail);
      return;
    }
}

}  // namespace optcoll::differential
